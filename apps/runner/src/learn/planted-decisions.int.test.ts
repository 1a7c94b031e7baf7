import { writeFile } from "node:fs/promises";
import path from "node:path";
import { entryContrast, safeParseJson } from "@tfgrpo/protocol";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSuite, writeSuiteJsonl } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simLearnArgs } from "../testing/sim-learn-args.js";
import { runCli } from "../testing/spawn-cli.js";

/*
 * Decisions as soon as the evidence allows (issue 32's acceptance, the lifecycle half). A small run — 24 training
 * tasks, 3 epochs, G = 5 — starts from a planted library of nine active math entries: three correct lessons, three
 * plausible harmful ones and three topic stubs, written here as a colleague would write them (not in the sim critic's
 * phrasing). With exposure sized to the decision (an entry whose interval straddles a threshold is varied in every
 * group it is shown in) and sequential moves, the harmful ones leave the active set by evidence within the run, each
 * move stating its numbers; the correct ones stay active with positive credit; and the head beats the planted library.
 */

const domain = "math";
const seed = 31;

/** Three lessons of each kind, on the negative-modulo, weighted-mean and successive-percent pitfalls of the math suite. */
export const plantedLessons = {
  correct: [
    "When a question asks for a remainder of a negative number, give the least nonnegative residue: if your result is below zero, add the modulus once more.",
    "To combine the averages of groups of different sizes, multiply each group's average by its headcount, add these totals, then divide by the total headcount.",
    "After a rise of a% and then a fall of b%, apply the fall to the raised price: multiply by (1 + a/100), then multiply that result by (1 - b/100).",
  ],
  harmful: [
    "Compute x % m the way C does, truncating toward zero, so the remainder of a negative number stays negative.",
    "For a combined mean, skip the weights: each class's mean counts once, whatever its size.",
    "Multiply the price by one net factor: a rise of a percent and a fall of b percent net to a change of a minus b percent on the original price.",
  ],
  stubs: ["Remainders of negative numbers.", "Averages across several groups.", "Successive percentage changes to a price."],
} as const;

let temporary: TemporaryDirectory | undefined;
let directory: string;

beforeAll(async () => {
  temporary = await temporaryDirectory("tfgrpo-planted-decisions-");
  directory = temporary.path;
  for (const [split, size] of [
    ["train", 24],
    ["val", 30],
    ["test", 40],
  ] as const) {
    await writeSuiteJsonl(path.join(directory, `${split}.jsonl`), createSuite({ domain, seed, size, split }));
  }
});
afterAll(async () => {
  await temporary?.[Symbol.asyncDispose]();
});

describe("a planted library on a small run (SIMULATED)", () => {
  it("moves harmful lessons out by sequential evidence, keeps the correct ones and ends above the planted library", async () => {
    const kinds = ["correct", "harmful", "stubs"] as const;
    const planted: Record<string, string> = {};
    const idsOf: Record<(typeof kinds)[number], string[]> = { correct: [], harmful: [], stubs: [] };
    kinds.forEach((kind, k) => {
      plantedLessons[kind].forEach((text, p) => {
        const id = `G${k * 3 + p}`;
        planted[id] = text;
        idsOf[kind].push(id);
      });
    });
    const file = path.join(directory, "planted.json");
    await writeFile(file, JSON.stringify(planted));
    const db = path.join(directory, "tfgrpo.db");
    const data = (split: string) => path.join(directory, `${split}.jsonl`);

    const imported = await runCli(["library", "import", file, "--domain", domain, "--db", db]);
    expect(imported.code, imported.stderr).toBe(0);
    const learned = await runCli(
      simLearnArgs({
        seed,
        domain,
        train: data("train"),
        val: data("val"),
        epochs: 3,
        groupSize: 5,
        concurrency: 8,
        db,
        runId: "planted-small",
      }),
    );
    expect(learned.code, learned.stderr).toBe(0);

    const store = await createStore(db);
    const head = (await store.getHead(domain))!;
    const byId = new Map(head.experiences.map((entry) => [entry.id, entry]));
    await store.close();
    const listing = listEntries(head.experiences);
    if (process.env.TFGRPO_TEST_VERBOSE) console.log(listing);

    // At least two harmful lessons left the active set on their contrast; the move states estimate, interval, n
    // and the threshold it crossed.
    const demoted = idsOf.harmful.filter((id) => {
      const entry = byId.get(id)!;
      const move = entry.history.find((event) => event.from === "active");
      return (
        entry.status !== "active" &&
        move !== undefined &&
        /contrast -\d\.\d{3} \[[-+]\d\.\d{3}, [-+]\d\.\d{3}\] over \d+ groups/.test(move.reason) &&
        /below/.test(move.reason)
      );
    });
    expect(demoted.length, listing).toBeGreaterThanOrEqual(2);
    for (const id of demoted) expect(entryContrast(byId.get(id)!.stats).estimate, listing).toBeLessThan(0);
    // At least two correct lessons are still active, credited with a positive contrast.
    const kept = idsOf.correct.filter(
      (id) => byId.get(id)!.status === "active" && entryContrast(byId.get(id)!.stats).estimate > 0,
    );
    expect(kept.length, listing).toBeGreaterThanOrEqual(2);

    // The head against the planted library on held-out tasks (the same seeds for both).
    const evaluated = await runCli([
      "eval",
      "--sim",
      "--domain",
      domain,
      "--library",
      `${domain}@v1`,
      "--library",
      `${domain}@head`,
      "--data",
      data("test"),
      "--k",
      "2",
      "--seed",
      String(seed),
      "--concurrency",
      "8",
      "--db",
      db,
      "--json",
      "--no-trace",
    ]);
    expect(evaluated.code, evaluated.stderr).toBe(0);
    const parsed = safeParseJson(evaluated.stdout);
    if (!parsed.success) throw new Error(`eval --json printed no JSON: ${evaluated.stdout.slice(0, 400)}`);
    const rows = (parsed.value as { rows: Array<{ meanAtK: { estimate: number } }> }).rows;
    const gain = rows[1]!.meanAtK.estimate - rows[0]!.meanAtK.estimate;
    expect(
      gain,
      `head ${rows[1]!.meanAtK.estimate} vs planted ${rows[0]!.meanAtK.estimate}\n${listing}`,
    ).toBeGreaterThanOrEqual(0.1);
  }, 900_000);
});

function listEntries(
  entries: ReadonlyArray<{
    id: string;
    status: string;
    text: string;
    stats: unknown;
    history: ReadonlyArray<{ reason: string }>;
  }>,
): string {
  return entries
    .map((entry) => {
      const interval = entryContrast(entry.stats as Parameters<typeof entryContrast>[0]);
      const last = entry.history.at(-1)?.reason ?? "";
      return `${entry.id} ${entry.status} ${interval.estimate.toFixed(3)} (n ${interval.n}) ${entry.text.slice(0, 50)} | ${last.slice(0, 160)}`;
    })
    .join("\n");
}
