// What the leakage check costs as the pool grows (issue 28): the runner fingerprints the run's tasks once and stores
// them; the curator reads them back once per run, indexes them, and checks each consolidation's proposals. Pools of
// sim math tasks (1,000 to 30,000), 60 proposals per check (3 per group of a 20-task batch), SQLite in memory.
// Run: pnpm --filter @tfgrpo/curator bench:leakage
import type { Proposal } from "@tfgrpo/protocol";
import { createSuite } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { createLeakageIndex } from "../src/leakage-check.js";
import { leakageFingerprintsOf } from "../src/leakage-fingerprints.js";

const sizes = [1000, 10_000, 30_000];
const proposalsPerCheck = 60;

const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
async function timed<T>(run: () => T | Promise<T>): Promise<{ value: T; ms: number }> {
  const start = cpuMs();
  const value = await run();
  return { value, ms: cpuMs() - start };
}

const lessons = [
  "Before answering, check small cases with code and compare them with the general formula.",
  "Count both ends of an inclusive range: the number of integers from a to b is b - a + 1.",
  "Keep fractions exact until the end; convert to a decimal only when the question asks for one.",
  "For the mean of two groups, weight each group's mean by its size before dividing by the total.",
];

const rows: string[] = [];
for (const size of sizes) {
  const pool = createSuite({ domain: "math", seed: 3, size, split: "train" });
  const proposals: Proposal[] = Array.from({ length: proposalsPerCheck }, (_, index) => ({
    proposalId: `p${index}`,
    op: "add",
    text: `${lessons[index % lessons.length]} Try n = ${index + 13} and n = ${index + 41}.`,
    reason: "bench",
    groupId: `g${index}`,
    taskId: `t${index}`,
  }));
  const fingerprints = await timed(() => leakageFingerprintsOf({ tasks: pool }));
  const store = await createStore(":memory:");
  const written = await timed(() => store.putLeakageFingerprints(fingerprints.value));
  const read = await timed(() => store.getLeakageFingerprints(written.value));
  await store.close();
  const index = await timed(() => createLeakageIndex(read.value!));
  const check = await timed(() => index.value.check(proposals));
  rows.push(
    `| ${size} | ${(JSON.stringify(fingerprints.value).length / 1e6).toFixed(1)} MB | ${fingerprints.ms.toFixed(0)} | ${written.ms.toFixed(0)} | ${read.ms.toFixed(0)} | ${index.ms.toFixed(0)} | ${(check.ms / proposalsPerCheck).toFixed(1)} | ${check.value.refused.length}/${proposalsPerCheck} |`,
  );
}
console.log(
  [
    "| pool | fingerprints (JSON) | fingerprint ms | store write ms | store read ms | index ms | check ms per proposal | refused |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows,
  ].join("\n"),
);
console.log("CPU milliseconds (user + system) of one run each; SQLite in memory.");
