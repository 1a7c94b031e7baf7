// Every Bus message is bounded by the step, never by the dataset (issue 28): the same learning step on a pool of 40
// tasks and on a pool of 4,000 sends messages of the same sizes. A request that carried something per pool task
// (the leakage check's tasks did: about 300 bytes each) would be a megabyte larger on the big pool.
import path from "node:path";
import { createRecordingBus, type RecordingBus, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSuite, writeSuiteJsonl } from "@tfgrpo/sim";
import { expect, it } from "vitest";
import { createRuntime } from "../runtime/create-runtime.js";
import { startSimWorld } from "../runtime/start-sim-world.js";
import { checkpointPathFor } from "./checkpoint-path.js";
import { learnOptionsSchema } from "./learn-options.js";
import { runLearning } from "./run-learning.js";

const domain = "math";
const seed = 4;

/** One learning step (batch 4, G = 2) on a pool of `poolSize` tasks; the largest message of each subject and kind. */
async function largestMessages(directory: string, poolSize: number): Promise<Map<string, number>> {
  const train = path.join(directory, `train-${poolSize}.jsonl`);
  const val = path.join(directory, "val.jsonl");
  await writeSuiteJsonl(train, createSuite({ domain, seed, size: poolSize, split: "train" }));
  await writeSuiteJsonl(val, createSuite({ domain, seed, size: 6, split: "val" }));
  await using sim = await startSimWorld({ seed });
  const db = path.join(directory, `pool-${poolSize}`, "tfgrpo.db");
  let recording: RecordingBus | undefined;
  await using runtime = await createRuntime({
    db,
    config: sim.config,
    localRoles: ["actor", "critic", "curator"],
    concurrency: 8,
    log: () => {},
    wrapBus: (bus) => {
      recording = createRecordingBus(bus);
      return recording;
    },
  });
  // The run stops once step 2 starts: step 1 has been consolidated, validated and gated by then.
  const stop = new AbortController();
  const log: string[] = [];
  await runLearning({
    bus: runtime.bus,
    store: runtime.store,
    checkpointPath: checkpointPathFor(db),
    start: {
      options: learnOptionsSchema.parse({
        runId: `pool-${poolSize}`,
        domain,
        epochs: 1,
        groupSize: 2,
        batchSize: 4,
        concurrency: 8,
        seed,
      }),
      data: { train, val },
    },
    progress: (label) => {
      if (label.startsWith("step 2")) stop.abort(new Error("one step is enough"));
      return { update: () => {}, done: () => {} };
    },
    log: (line) => log.push(line),
    signal: stop.signal,
  }).catch((error: unknown) => {
    if (!stop.signal.aborted) throw error;
  });
  expect(log.join("\n")).toMatch(/step 1: \d+ proposal\(s\) -> \d+ operation\(s\)/);
  return recording!.largest();
}

it("sends messages of the same size on a pool of 40 tasks and on one of 4,000: nothing grows with the pool", async () => {
  await using directory = await temporaryDirectory("tfgrpo-bus-message-size-");
  const small = await largestMessages(directory.path, 40);
  const large = await largestMessages(directory.path, 4000);
  const rows = [...new Set([...small.keys(), ...large.keys()])]
    .sort()
    .map((key) => `${key}: ${small.get(key) ?? "-"} -> ${large.get(key) ?? "-"} bytes`);
  console.log(`largest message by subject, pool of 40 -> pool of 4,000:\n${rows.join("\n")}`);
  // The step consolidated its proposals with the leakage check on both pools: the request that used to carry the pool.
  expect(small.get("tfgrpo.curator.consolidate request")).toBeGreaterThan(0);
  expect(large.get("tfgrpo.curator.consolidate request")).toBeGreaterThan(0);
  expect([...large.keys()].sort()).toEqual([...small.keys()].sort());
  for (const [key, bytes] of large) {
    // Different tasks and lessons make sizes differ a little; 3,960 more tasks of ~300 bytes would add ~1 MB.
    expect(bytes, key).toBeLessThanOrEqual(small.get(key)! + 16 * 1024);
    expect(bytes, key).toBeLessThanOrEqual(64 * 1024);
  }
}, 300_000);
