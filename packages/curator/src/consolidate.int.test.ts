// The curator against the sim world (packages/sim: a SIMULATED model behind a real OpenAI-compatible HTTP server)
// through the real models client and a real SQLite store, with a noisy critic's batch: paraphrased duplicates,
// exact duplicates, vague advice, contradictory lessons, wrong ids and over-long lessons.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createModels, parseModelsConfig } from "@tfgrpo/models";
import type { Proposal } from "@tfgrpo/protocol";
import { allPitfalls, classifyText, createSimServer, genericLessons, type SimServer } from "@tfgrpo/sim";
import { createStore, type Store } from "@tfgrpo/store";
import { realLibraryPath } from "@tfgrpo/store/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCurator } from "./create-curator.js";
import { isVagueLesson } from "./vague-lesson.js";
import { countWords } from "./word-limit.js";

const mathPitfalls = allPitfalls.filter((pitfall) => pitfall.domain === "math");
let directory: string;
let store: Store;
let base: number;

function modelsFor(sim: SimServer) {
  return createModels(
    parseModelsConfig({
      roles: {
        curator: { baseUrl: sim.url, model: "sim-curator", maxRetries: 1, timeoutMs: 10_000 },
        embedder: { baseUrl: sim.url, model: "sim-embedder" },
      },
    }),
    { sleep: async () => {} },
  );
}

/** What the sim's critic produces with its noise turned up, over a few pitfalls. */
function noisyBatch(): Proposal[] {
  const proposals: Proposal[] = [];
  const add = (text: string, reason: string, extra: Partial<Proposal> = {}) =>
    proposals.push({
      proposalId: `p${proposals.length}`,
      op: "add",
      text,
      reason,
      groupId: `group-${proposals.length % 7}`,
      taskId: `task-${proposals.length}`,
      ...extra,
    });
  for (const pitfall of mathPitfalls.slice(0, 5)) {
    // Every group that met the pitfall proposes one of its paraphrases: duplicates the curator must merge.
    for (const lesson of pitfall.lessons) add(lesson, `attempts that ${pitfall.title} failed`);
  }
  // The same lesson, word for word, from two more groups.
  add(mathPitfalls[0]!.lessons[0]!, "exact duplicate");
  add(mathPitfalls[0]!.lessons[0]!.toLowerCase(), "exact duplicate, other case");
  // A minority pointing the wrong way on pitfall 1.
  add(mathPitfalls[1]!.opposite[0]!, "contradictory");
  // Vague advice and a wrong id.
  for (const vague of genericLessons.math.slice(0, 3)) add(vague, "vague");
  add("When stuck, rethink.", "wrong id", { op: "modify", id: "G999" });
  add("", "empty", { op: "delete", id: "G998", text: undefined });
  // An over-long lesson.
  add(
    `${mathPitfalls[5]!.lessons[0]!} ${mathPitfalls[5]!.lessons[1] ?? ""} Always write this down twice.`,
    "long",
  );
  return proposals;
}

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-curator-int-"));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});
beforeEach(async () => {
  store = await createStore(path.join(directory, `store-${Date.now()}-${Math.random()}.db`));
  await store.importLibrary("math", {
    text: await readFile(realLibraryPath("math"), "utf8"),
    file: "math.json",
  });
  // A wrong-way lesson already in the library, which this batch's majority contradicts.
  const wrong = await store.applyOperations(
    "math",
    [
      {
        op: "add",
        text: mathPitfalls[2]!.opposite[0]!,
        status: "active",
        reason: "learned earlier from a noisy batch",
      },
    ],
    { parent: (await store.getHeadVersion("math"))!, state: "committed" },
  );
  base = wrong.version.version;
});
afterEach(async () => {
  await store.close();
});

describe("consolidation over the sim world with a noisy critic", () => {
  it("merges duplicates, resolves or groups contradictions, keeps every entry within the word limit", async () => {
    await using sim = await createSimServer({ seed: 11 });
    const curator = createCurator({
      store,
      models: modelsFor(sim),
      config: { conflicts: { topicSimilarity: 0.4 }, duplicates: { nearDuplicateSimilarity: 0.9 } },
    });
    const proposals = noisyBatch();
    const result = await curator.consolidate({
      runId: "run-int",
      domain: "math",
      baseVersion: base,
      proposals,
    });
    expect(result.fallback).toBe(false);
    expect(result.version).not.toBeNull();
    // The pre-pass folded the exact duplicates and dropped the malformed ones before the model saw them.
    expect(result.prepass.collapsed).toBeGreaterThanOrEqual(2);
    expect(result.notes.some((note) => /^p\d+: delete of unknown id G998, dropped$/.test(note))).toBe(true);
    expect(
      result.notes.some((note) => /^p\d+: modify of unknown id G999: kept as a new entry$/.test(note)),
    ).toBe(true);

    const after = (await store.getVersion("math", result.version!))!.experiences;
    const live = after.filter((entry) => entry.status !== "archived");
    for (const entry of live) expect(countWords(entry.text), entry.text).toBeLessThanOrEqual(32);

    // Duplicates merged: at most one live entry per pitfall direction among what this batch created.
    const created = live.filter((entry) => result.createdIds.includes(entry.id));
    expect(created.length).toBeGreaterThan(0);
    // Vague advice ("Be careful with calculations.") does not make it in, whoever proposed or kept it.
    for (const entry of created) expect(isVagueLesson(entry.text, 4), entry.text).toBe(false);
    expect(result.notes.some((note) => note.includes("too vague to act on"))).toBe(true);
    const perConcept = new Map<string, number>();
    for (const entry of created) {
      const top = classifyText(entry.text)[0];
      if (!top) continue;
      const key = `${top.pitfall.id}:${top.match.direction}`;
      perConcept.set(key, (perConcept.get(key) ?? 0) + 1);
    }
    for (const [concept, count] of perConcept) expect(count, concept).toBe(1);

    // The wrong-way lesson the majority contradicts is resolved (archived) or put in a group with its rival.
    const wrongWay = after.find((entry) => entry.text === mathPitfalls[2]!.opposite[0]);
    expect(wrongWay).toBeDefined();
    const rivals = live.filter((entry) => {
      const top = classifyText(entry.text)[0];
      return top?.pitfall.id === mathPitfalls[2]!.id && top.match.direction === "helps";
    });
    if (wrongWay!.status !== "archived") {
      expect(wrongWay!.conflictGroup).toBeDefined();
      expect(rivals.some((rival) => rival.conflictGroup === wrongWay!.conflictGroup)).toBe(true);
    }
    // No two live entries give opposite advice on one pitfall outside a shared exclusion group.
    const byPitfall = new Map<string, typeof live>();
    for (const entry of live) {
      const top = classifyText(entry.text)[0];
      if (!top || top.match.direction === "neutral") continue;
      byPitfall.set(top.pitfall.id, [...(byPitfall.get(top.pitfall.id) ?? []), entry]);
    }
    for (const [pitfall, entries] of byPitfall) {
      const directions = new Set(entries.map((entry) => classifyText(entry.text)[0]!.match.direction));
      if (directions.size < 2) continue;
      const groups = new Set(entries.map((entry) => entry.conflictGroup));
      expect(groups.size, `${pitfall}: ${entries.map((e) => e.text).join(" | ")}`).toBe(1);
      expect([...groups][0]).toBeDefined();
    }
    expect(result.usage.calls).toBeGreaterThan(0);
  });

  it("loses nothing when every model answer is malformed: the batch's proposals become candidates", async () => {
    await using sim = await createSimServer({
      seed: 12,
      faults: { rate: 1, kinds: { malformedJson: true } },
    });
    const curator = createCurator({
      store,
      models: modelsFor(sim),
      config: { conflicts: { topicSimilarity: 0.4 } },
    });
    const proposals = noisyBatch();
    const result = await curator.consolidate({
      runId: "run-faulty",
      domain: "math",
      baseVersion: base,
      proposals,
    });
    expect(result.fallback).toBe(true);
    expect(result.notes.some((note) => note.includes("model answer unusable"))).toBe(true);
    const after = (await store.getVersion("math", result.version!))!.experiences;
    const texts = new Set(after.map((entry) => entry.text.toLowerCase()));
    // Every proposal with text is either in the library now (as a candidate, shortened if needed) or was folded into a
    // duplicate by the pre-pass: accounted for in the notes or the suggestion sources.
    for (const proposal of proposals) {
      if (!proposal.text) continue;
      const kept = [...texts].some((text) =>
        text.startsWith(proposal.text!.toLowerCase().split(" ").slice(0, 8).join(" ")),
      );
      const noted = result.notes.some(
        (note) => note.includes(`${proposal.proposalId}:`) || note.includes(`${proposal.proposalId},`),
      );
      expect(kept || noted, `${proposal.proposalId}: ${proposal.text}`).toBe(true);
    }
    for (const entry of after.filter((e) => result.createdIds.includes(e.id))) {
      expect(entry.status).toBe("candidate");
      expect(countWords(entry.text)).toBeLessThanOrEqual(32);
    }
  });

  it("groups contradictory entries of a library through the sim's conflict check", async () => {
    await using sim = await createSimServer({ seed: 13 });
    const pitfall = mathPitfalls[3]!;
    const head = (await store.getHeadVersion("math"))!;
    await store.applyOperations(
      "math",
      [
        { op: "add", text: pitfall.lessons[0]!, status: "candidate", reason: "fallback candidate" },
        { op: "add", text: pitfall.opposite[0]!, status: "candidate", reason: "fallback candidate" },
      ],
      { parent: head, state: "committed" },
    );
    const curator = createCurator({
      store,
      models: modelsFor(sim),
      config: { conflicts: { topicSimilarity: 0.4 } },
    });
    const report = await curator.detectConflicts({ domain: "math", apply: "committed" });
    const after = (await store.getHead("math"))!.experiences;
    const lesson = after.find((entry) => entry.text === pitfall.lessons[0])!;
    const opposite = after.find((entry) => entry.text === pitfall.opposite[0])!;
    expect(
      report.conflicts.pairs.some(
        (pair) => [pair.a, pair.b].sort().join() === [lesson.id, opposite.id].sort().join(),
      ),
    ).toBe(true);
    expect(lesson.conflictGroup).toBeDefined();
    expect(opposite.conflictGroup).toBe(lesson.conflictGroup);
  });
});
