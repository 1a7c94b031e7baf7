import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createHashingEmbedder, planLifecycle, resolveCuratorConfig } from "@tfgrpo/curator";
import {
  contrastOf,
  contrastSequence,
  type Experience,
  type ExperienceStatus,
  entryContrast,
  type Operation,
  seededRandom,
} from "@tfgrpo/protocol";
import { createStore, type Store } from "@tfgrpo/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { onlineCuratorConfig } from "../online/online-curator-config.js";
import { createLibraryService } from "./in-process-library-service.js";
import type { LibraryService } from "./library-service.js";

/*
 * Online credit end to end, through the real service and store: a simulated client draws each task's success from
 * its family's base rate plus the true effect of every entry the prompt showed, reports it, and the contrasts the
 * store settles are read back and judged by the curator's lifecycle (with the online settings).
 */

interface PlantedEntry {
  text: string;
  status: ExperienceStatus;
  /** True effect on the success probability when shown. */
  effect: number;
}

const families = [
  { name: "weighted-mean", words: "groups sizes means weighted average", base: 0.8 },
  { name: "percent", words: "price percent discount successive change", base: 0.7 },
  { name: "primes", words: "prime factors divisors integer count", base: 0.75 },
  { name: "units", words: "speed distance hours kilometres convert", base: 0.65 },
];

const config = resolveCuratorConfig(onlineCuratorConfig(undefined));

async function plant(store: Store, entries: readonly PlantedEntry[]): Promise<void> {
  const ops: Operation[] = entries.map((entry) => ({
    op: "add",
    text: entry.text,
    status: entry.status,
    reason: "planted",
  }));
  await store.applyOperations("math", ops, { parent: null, state: "committed" });
}

/** Serves `count` tasks and reports their simulated outcomes; `drop` lowers every base rate from `dropAt` on. */
async function serveTraffic(input: {
  service: LibraryService;
  entries: readonly PlantedEntry[];
  random: () => number;
  from: number;
  count: number;
  withFamily: boolean;
  drop?: { at: number; by: number };
  /** Called every 30 reports (a reflection's rhythm) with the number served so far. */
  checkpoint?: (served: number) => Promise<void>;
}): Promise<void> {
  const effectOf = new Map(input.entries.map((entry, index) => [`G${index}`, entry.effect]));
  for (let i = input.from; i < input.from + input.count; i++) {
    const family = families[Math.floor(input.random() * families.length)]!;
    const reply = await input.service.getExperiences({
      domain: "math",
      task: `Task ${i} about ${family.words}: solve it.`,
      ...(input.withFamily ? { family: family.name } : {}),
    });
    const harder = input.drop && i >= input.drop.at ? input.drop.by : 0;
    const p = reply.entries.reduce((sum, entry) => sum + effectOf.get(entry.id)!, family.base - harder);
    const reward = input.random() < Math.min(1, Math.max(0, p)) ? 1 : 0;
    await input.service.reportOutcome({ selectionId: reply.selectionId, reward });
    if ((i + 1) % 30 === 0) await input.checkpoint?.(i + 1);
  }
}

function judge(experiences: readonly Experience[], policy = config.lifecycle) {
  return planLifecycle({
    experiences,
    version: 1,
    policy,
    budget: config.activeBudget,
    utility: config.utility,
  });
}

describe("online credit by contrast", () => {
  let directory: string;
  let store: Store;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-online-credit-"));
    store = await createStore(path.join(directory, "store.db"));
  });
  afterEach(async () => {
    await store.close();
    await rm(directory, { recursive: true, force: true });
  });

  it("when traffic gets harder no entry turns harmful: every contrast stays near 0", async () => {
    const entries: PlantedEntry[] = [
      { text: "Weight each group's mean by its size.", status: "active", effect: 0 },
      { text: "Write the percentage changes as factors.", status: "candidate", effect: 0 },
      { text: "List the prime factors before counting divisors.", status: "probation", effect: 0 },
      { text: "Convert every quantity to one unit first.", status: "active", effect: 0 },
    ];
    await plant(store, entries);
    // Strata from the task embedding (no family given): SimHash buckets of the hashing embedder.
    const service = createLibraryService({
      store,
      embed: createHashingEmbedder(),
      statsMaxAgeMs: 0,
      random: seededRandom(7),
    });
    // The rule this replaces, kept beside it: each shown entry's mean of reward - the mean of the last 100 rewards,
    // judged by the lifecycle's no-contrast fallback (4 showings).
    const window: number[] = [];
    const shadow = new Map<string, { shown: number; sumDelta: number }>();
    const oldHarm = new Set<string>();
    const newHarm: string[] = [];
    const seen = new Set<string>();
    const oldService: LibraryService = {
      ...service,
      async getExperiences(request) {
        const reply = await service.getExperiences(request);
        seen.clear();
        for (const entry of reply.entries) seen.add(entry.id);
        return reply;
      },
      async reportOutcome(request) {
        const reward = request.reward!;
        const baseline = window.length === 0 ? reward : window.reduce((a, b) => a + b, 0) / window.length;
        for (const id of seen) {
          const stats = shadow.get(id) ?? { shown: 0, sumDelta: 0 };
          shadow.set(id, { shown: stats.shown + 1, sumDelta: stats.sumDelta + reward - baseline });
        }
        window.push(reward);
        if (window.length > 100) window.shift();
        return service.reportOutcome(request);
      },
    };
    await serveTraffic({
      service: oldService,
      entries,
      random: seededRandom(11),
      from: 0,
      count: 900,
      withFamily: false,
      drop: { at: 450, by: 0.45 },
      async checkpoint() {
        const head = (await store.getHead("math"))!;
        for (const move of judge(head.experiences)) {
          if (move.reason.includes("hurts") || move.to === "archived")
            newHarm.push(`${move.id}: ${move.reason}`);
        }
        const before = head.experiences.map((entry) => {
          const old = shadow.get(entry.id) ?? { shown: 0, sumDelta: 0 };
          return { ...entry, stats: { ...entry.stats, ...old, contrast: undefined } };
        });
        // At the contrast rule's own margin (0): on equal terms, the shared series flags what the contrast does not.
        for (const move of judge(before, { ...resolveCuratorConfig().lifecycle, meanDeltaHarmMargin: 0 })) {
          if (move.reason.includes("hurts") || move.reason.includes("candidate hurts")) oldHarm.add(move.id);
        }
      },
    });
    const head = (await store.getHead("math"))!;
    const contrasts = head.experiences.map((entry) => entryContrast(entry.stats));
    console.log(
      "harder traffic:",
      head.experiences.map(
        (entry, i) => `${entry.id} ${contrasts[i]!.estimate.toFixed(3)} n=${contrasts[i]!.n}`,
      ),
      "old rule flagged:",
      [...oldHarm],
    );
    // The old rule: the drop makes entries "harmful" (the test can tell the two apart).
    expect(oldHarm.size).toBeGreaterThanOrEqual(3);
    // Contrasts: no harm at any checkpoint, every estimate near 0 with real evidence behind it.
    expect(newHarm).toEqual([]);
    for (const [index, interval] of contrasts.entries()) {
      expect(interval.n).toBeGreaterThanOrEqual(40);
      expect(Math.abs(interval.estimate)).toBeLessThan(0.1);
      // The bound the lifecycle decides on (valid at every checkpoint, not only this last one) still allows no effect.
      expect(contrastSequence(contrastOf(head.experiences[index]!.stats)).upper).toBeGreaterThan(0);
    }
  });

  it("a truly harmful entry's contrast goes negative, a helpful one's positive, across a restart of the service", async () => {
    const entries: PlantedEntry[] = [
      { text: "Weight each group's mean by its size.", status: "active", effect: 0 },
      { text: "Take the plain average of the group means.", status: "candidate", effect: -0.3 },
      { text: "Write each percentage change as a factor and multiply.", status: "candidate", effect: 0.25 },
      { text: "Be careful with the numbers.", status: "probation", effect: 0 },
    ];
    await plant(store, entries);
    const random = seededRandom(5);
    const serve = (service: LibraryService, from: number, count: number) =>
      serveTraffic({ service, entries, random, from, count, withFamily: true });
    await serve(createLibraryService({ store, statsMaxAgeMs: 0, random: seededRandom(3) }), 0, 250);
    // Durable: the waiting reports are in the store, so a new process goes on where the last one stopped.
    await store.close();
    store = await createStore(path.join(directory, "store.db"));
    await serve(createLibraryService({ store, statsMaxAgeMs: 0, random: seededRandom(4) }), 250, 250);

    const head = (await store.getHead("math"))!;
    const [neutral, harmful, helpful, vague] = head.experiences.map((entry) => entryContrast(entry.stats));
    console.log(
      "planted effects:",
      head.experiences.map((entry) => `${entry.id} ${JSON.stringify(entryContrast(entry.stats))}`),
    );
    expect(harmful!.estimate).toBeLessThan(-0.15);
    expect(harmful!.upper).toBeLessThan(0);
    expect(helpful!.estimate).toBeGreaterThan(0.1);
    expect(helpful!.lower).toBeGreaterThan(0);
    for (const interval of [neutral!, vague!]) {
      expect(interval.lower).toBeLessThan(0);
      expect(interval.upper).toBeGreaterThan(0);
    }
    // The curator's lifecycle acts on them: the harmful candidate archived on its contrast, the helpful one promoted.
    const moves = judge(head.experiences);
    expect(moves.find((move) => move.id === "G1")).toMatchObject({ to: "archived" });
    expect(moves.find((move) => move.id === "G1")!.reason).toMatch(/candidate hurts: contrast -0\.\d+ \[/);
    expect(moves.find((move) => move.id === "G2")).toMatchObject({ to: "active" });
    // The shared counters count showings only: the active entry is withheld in about a sixth of the requests (varied
    // in a third, withheld in half of those), the candidates in about half.
    const shown = head.experiences.map((entry) => entry.stats.shown);
    expect(shown[0]).toBeGreaterThan(500 * 0.75);
    expect(shown[0]).toBeLessThan(500 * 0.92);
    expect(shown[1]! + shown[2]!).toBeLessThan(2 * 500 * 0.6);
  });
});
