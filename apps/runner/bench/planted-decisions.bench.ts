import { writeFile } from "node:fs/promises";
import path from "node:path";
import { contrastDecision, contrastOf, entryContrast } from "@tfgrpo/protocol";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createStore } from "@tfgrpo/store";
import { movedByEvidence } from "../src/testing/moved-by-evidence.js";
import { plantedHeadGain } from "../src/testing/planted-head-gain.js";
import { simLearnArgs } from "../src/testing/sim-learn-args.js";
import { runCli } from "../src/testing/spawn-cli.js";
import { writeSimSuites } from "../src/testing/write-sim-suites.js";

/*
 * Decisions as soon as the evidence allows (issue 32's acceptance, the lifecycle half), as a benchmark: it prints
 * each planted entry's fate and the acceptance checks, good or bad (a few minutes).
 *   pnpm --filter tfgrpo bench:planted-decisions
 * A small run — 24 training
 * tasks, 3 epochs, G = 5 — starts from a planted library of nine active math entries: three correct lessons, three
 * plausible harmful ones and three topic stubs, written here as a colleague would write them (not in the sim critic's
 * phrasing). With exposure sized to the decision (an entry whose interval straddles a threshold is varied in every
 * group it is shown in) and sequential moves, the harmful ones leave the active set by evidence within the run, each
 * move stating its numbers; the correct ones stay active with positive credit; and the head beats the planted library.
 */

const domain = "math";
const seed = 31;

/** Three lessons of each kind, on the negative-modulo, weighted-mean and successive-percent pitfalls of the math suite. */
const plantedLessons = {
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
  stubs: [
    "Remainders of negative numbers.",
    "Averages across several groups.",
    "Successive percentage changes to a price.",
  ],
} as const;

await using temporary = await temporaryDirectory("tfgrpo-planted-decisions-");
const directory = temporary.path;
await writeSimSuites(directory, { domain, seed, sizes: { train: 24, val: 30, test: 40 } });
const kinds = ["correct", "harmful", "stubs"] as const;
const planted: Record<string, string> = {};
const kindOf = new Map<string, (typeof kinds)[number]>();
kinds.forEach((kind, k) => {
  plantedLessons[kind].forEach((text, p) => {
    const id = `G${k * 3 + p}`;
    planted[id] = text;
    kindOf.set(id, kind);
  });
});
const file = path.join(directory, "planted.json");
await writeFile(file, JSON.stringify(planted));
const db = path.join(directory, "tfgrpo.db");
const data = (split: string) => path.join(directory, `${split}.jsonl`);
const must = async (args: string[]) => {
  const result = await runCli(args);
  if (result.code !== 0) throw new Error(`tfgrpo ${args[0]} failed: ${result.stderr.slice(-800)}`);
  return result;
};
await must(["library", "import", file, "--domain", domain, "--db", db]);
await must([
  ...simLearnArgs({
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
  "--settled-task-attempts",
  "2",
  ...process.argv.slice(2),
]);
const store = await createStore(db);
const head = (await store.getHead(domain))!;
const rollouts = (await store.listTrajectories({ runId: "planted-small" })).filter((t) =>
  /^planted-small\/s\d+\//.test(t.groupId),
).length;
await store.close();
const byId = new Map(head.experiences.map((entry) => [entry.id, entry]));
console.log(`head v${head.version}; training rollouts ${rollouts}`);
for (const [id, kind] of kindOf) {
  const entry = byId.get(id);
  if (!entry) continue;
  const interval = entryContrast(entry.stats);
  const moves = entry.history
    .filter((event) => event.from !== null)
    .map((event) => `v${event.version} ${event.from}->${event.to}: ${event.reason}`);
  // The per-group spread and the demotion test's log likelihood ratio (threshold ln 10 = 2.30 at the defaults).
  const spread = interval.n > 1 ? interval.standardError * Math.sqrt(interval.n) : Number.NaN;
  const logRatio = contrastDecision(contrastOf(entry.stats)).harmLogRatio;
  console.log(
    `${id} ${kind.padEnd(7)} ${entry.status.padEnd(9)} ${interval.estimate >= 0 ? "+" : ""}${interval.estimate.toFixed(3)} over ${interval.n} (sd ${spread.toFixed(2)}, harm LLR ${logRatio.toFixed(2)})  ${entry.text.slice(0, 60)}`,
  );
  for (const move of moves) console.log(`    ${move.slice(0, 220)}`);
}
const harmfulByEvidence = [...kindOf].filter(([id, kind]) => {
  const entry = byId.get(id)!;
  const move = entry.history.find((event) => event.from === "active");
  return (
    kind === "harmful" && entry.status !== "active" && move !== undefined && movedByEvidence(move.reason)
  );
}).length;
const correctKept = [...kindOf].filter(
  ([id, kind]) =>
    kind === "correct" &&
    byId.get(id)!.status === "active" &&
    entryContrast(byId.get(id)!.stats).estimate > 0,
).length;
const {
  planted: plantedScore,
  head: headScore,
  gain,
} = await plantedHeadGain({
  domain,
  data: data("test"),
  seed,
  db,
});
const check = (ok: boolean, text: string) => console.log(`${ok ? "PASS" : "FAIL"} ${text}`);
check(
  harmfulByEvidence >= 2,
  `harmful entries out of the active set by evidence: ${harmfulByEvidence} (want >= 2)`,
);
check(correctKept >= 2, `correct entries active with positive credit: ${correctKept} (want >= 2)`);
check(
  gain >= 0.1,
  `head ${headScore.toFixed(3)} vs planted ${plantedScore.toFixed(3)} on held-out tasks: ${(100 * gain).toFixed(1)} points (want >= 10)`,
);
console.log("SIMULATED world: these numbers are not a claim about any real model.");
