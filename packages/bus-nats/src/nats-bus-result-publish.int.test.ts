import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DiscardPolicy, jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { eventually } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { sleepJob } from "../test/fixtures/fixture-subjects.js";
import { cleanups, collect, natsBus, natsServer } from "../test/fixtures/nats-test-kit.js";
import type { BusLogger } from "./bus-logger.js";

/** JetStream's own publish timeout (the client's default): what a publish lost in a reconnect used to wait out. */
const jetStreamPublishTimeoutMs = 5000;

function recordingLogger(): BusLogger & { errors: string[] } {
  const errors: string[] = [];
  return { errors, warn: () => {}, error: (message) => errors.push(message) };
}

describe("NATS Bus: a job's result that cannot be stored at once", () => {
  it("frees the worker's slot while the result is retried in the background, and stores it once it can", async () => {
    const server = await natsServer();
    const admin = await connect({ servers: server.url });
    cleanups.push(() => admin.close());
    const jsm = await jetstreamManager(admin);
    const logger = recordingLogger();
    const options = { servers: server.url, streamPrefix: "SLOT" };
    const worker = await natsBus({ ...options, logger });
    const runs: string[] = [];
    await worker.work(
      sleepJob,
      async ({ tag }, { jobId, attempt }) => {
        runs.push(`${jobId}#${attempt}`);
        return { worker: "w", tag };
      },
      { concurrency: 1 },
    );
    const runner = await natsBus(options);
    const { results, ready } = collect(runner, sleepJob, "run");
    await ready;
    await runner.enqueue(sleepJob, [{ id: "warm-up", input: { ms: 0, tag: "w" } }], { replyTo: "run" });
    await eventually("the warm-up result", () => results.length === 1);

    // A full results stream that discards new messages refuses every publish until it is given room again.
    const config = (await jsm.streams.info("SLOT_RESULTS")).config;
    await jsm.streams.update("SLOT_RESULTS", { ...config, max_msgs: 1, discard: DiscardPolicy.New });
    await runner.enqueue(sleepJob, [{ id: "blocked", input: { ms: 0, tag: "a" } }], { replyTo: "run" });
    await eventually("the blocked job to run", () => runs.includes("blocked#1"));
    await runner.enqueue(sleepJob, [{ id: "next", input: { ms: 0, tag: "b" } }], { replyTo: "run" });
    // One slot: the next job runs only if the blocked job's result no longer holds it.
    await eventually("the next job to run while the blocked result is retried", () =>
      runs.includes("next#1"),
    );
    expect(logger.errors, "no result given up on yet").toEqual([]);
    expect(results.map((result) => result.jobId)).toEqual(["warm-up"]);

    await jsm.streams.update("SLOT_RESULTS", { ...config, discard: config.discard });
    await eventually("both results", () => results.length === 3);
    expect(results.slice(1).sort((a, b) => a.jobId.localeCompare(b.jobId))).toEqual([
      { jobId: "blocked", ok: true, output: { worker: "w", tag: "a" }, attempt: 1 },
      { jobId: "next", ok: true, output: { worker: "w", tag: "b" }, attempt: 1 },
    ]);
    // Stored by its first run: the job was not handed back to run again.
    expect(runs).toEqual(["warm-up#1", "blocked#1", "next#1"]);
  });

  it("sends a result published while the server is down again at the reconnect, not after the publish timeout", async () => {
    const storeDir = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-restart-"));
    cleanups.push(() => rm(storeDir, { recursive: true, force: true }));
    const before = await natsServer({ storeDir });
    const options = { servers: before.url, streamPrefix: "REPUB", ackWaitMs: 20_000 };
    const worker = await natsBus(options);
    let returnedAt = 0;
    const runs: string[] = [];
    await worker.work(
      sleepJob,
      async ({ tag }, { jobId, attempt }) => {
        runs.push(`${jobId}#${attempt}`);
        if (tag === "kill") {
          const exited = new Promise((resolve) => before.process.once("exit", resolve));
          before.kill();
          await exited;
          returnedAt = Date.now();
        }
        return { worker: "w", tag };
      },
      { concurrency: 1 },
    );
    const runner = await natsBus(options);
    const { results, ready } = collect(runner, sleepJob, "run");
    await ready;
    await runner.enqueue(sleepJob, [{ id: "in-flight", input: { ms: 0, tag: "kill" } }], { replyTo: "run" });
    await eventually("the handler to return with the server down", () => returnedAt > 0);
    await natsServer({ storeDir, port: before.port });
    await eventually("the result", () => results.length === 1, 20_000);
    const storedAfterMs = Date.now() - returnedAt;
    expect(results[0]).toEqual({
      jobId: "in-flight",
      ok: true,
      output: { worker: "w", tag: "kill" },
      attempt: 1,
    });
    // Its first publish went into the dead connection: the client drops that at the reconnect, so waiting for its
    // reply would take the whole timeout, while the slot stays held.
    expect(storedAfterMs).toBeLessThan(jetStreamPublishTimeoutMs);
    await runner.enqueue(sleepJob, [{ id: "after", input: { ms: 0, tag: "b" } }], { replyTo: "run" });
    await eventually("the next job's result", () => results.length === 2, 20_000);
    expect(runs).toEqual(["in-flight#1", "after#1"]);
  }, 40_000);
});

describe("NATS Bus: enqueueing across a nats-server restart", () => {
  it("stores a job enqueued while the server is down once it is back, instead of failing after the publish timeout", async () => {
    const storeDir = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-restart-"));
    cleanups.push(() => rm(storeDir, { recursive: true, force: true }));
    const before = await natsServer({ storeDir });
    const options = { servers: before.url, streamPrefix: "ENQ", ackWaitMs: 20_000 };
    const worker = await natsBus(options);
    await worker.work(sleepJob, async ({ tag }) => ({ worker: "w", tag }));
    const runner = await natsBus(options);
    const { results, ready } = collect(runner, sleepJob, "run");
    await ready;
    const exited = new Promise((resolve) => before.process.once("exit", resolve));
    before.kill();
    await exited;
    // Sent into the dead connection: the client drops it at the reconnect.
    const enqueued = runner.enqueue(sleepJob, [{ id: "while-down", input: { ms: 0, tag: "d" } }], {
      replyTo: "run",
    });
    await natsServer({ storeDir, port: before.port });
    await expect(enqueued).resolves.toBeUndefined();
    await eventually("its result", () => results.length === 1, 20_000);
    expect(results[0]).toMatchObject({ jobId: "while-down", ok: true, output: { tag: "d" }, attempt: 1 });
  }, 40_000);
});
