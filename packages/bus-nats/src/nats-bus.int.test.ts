import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { defineSubject, rolloutRequestSchema, TfgrpoError, trajectorySchema } from "@tfgrpo/protocol";
import { eventually } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { bigTrajectory } from "../test/fixtures/big-trajectory.js";
import { sleepJob } from "../test/fixtures/fixture-subjects.js";
import {
  cleanups,
  collect,
  natsBus,
  natsServer,
  streamMessages,
  until,
} from "../test/fixtures/nats-test-kit.js";

const rollout = defineSubject("tfgrpo.fixture.rollout", rolloutRequestSchema, trajectorySchema);
const text = defineSubject(
  "tfgrpo.fixture.text",
  z.object({ text: z.string() }),
  z.object({ length: z.number() }),
);

describe("NATS Bus against a real nats-server", () => {
  it("does not redeliver a long job that heartbeats, automatically or by working(), but does one that does not", async () => {
    const server = await natsServer();
    const runs: Record<string, number[]> = { auto: [], manual: [], silent: [] };
    const worker = async (prefix: keyof typeof runs, heartbeatMs: number | undefined, beat: boolean) => {
      const bus = await natsBus({
        servers: server.url,
        streamPrefix: prefix.toUpperCase(),
        ackWaitMs: 1000,
        heartbeatMs,
      });
      await bus.work(sleepJob, async ({ ms, tag }, context) => {
        runs[prefix]!.push(context.attempt);
        const timer = beat ? setInterval(() => context.working(), 250) : undefined;
        await new Promise((resolve) => setTimeout(resolve, ms));
        clearInterval(timer);
        return { worker: prefix, tag };
      });
      await bus.enqueue(sleepJob, [{ id: `${prefix}-job`, input: { ms: 3000, tag: prefix } }], {
        replyTo: "run",
      });
      const collected = collect<{ worker: string }>(bus, sleepJob, "run");
      await collected.ready;
      return collected.results;
    };
    const [auto, manual, silent] = await Promise.all([
      worker("auto", undefined, false),
      worker("manual", 0, true),
      worker("silent", 0, false),
    ]);
    await eventually("all three results", () => auto.length + manual.length + silent.length === 3);
    expect(auto[0]).toMatchObject({ ok: true, attempt: 1 });
    expect(manual[0]).toMatchObject({ ok: true, attempt: 1 });
    expect(runs.auto).toEqual([1]);
    expect(runs.manual).toEqual([1]);
    // The control: without heartbeats the same job is redelivered while it still runs (first result wins).
    expect(runs.silent.length).toBeGreaterThan(1);
  });

  it("retries a job whose error says retryable, then ends it as a failure on its last delivery", async () => {
    const server = await natsServer();
    const bus = await natsBus({ servers: server.url, streamPrefix: "RETRY", maxDeliver: 3 });
    const attempts: Record<string, number[]> = {};
    await bus.work(sleepJob, async ({ tag }, context) => {
      attempts[context.jobId] = [...(attempts[context.jobId] ?? []), context.attempt];
      if (tag === "always" || context.attempt === 1) {
        throw new TfgrpoError("model_error", "429 from the provider", { details: { retryable: true } });
      }
      return { worker: "w", tag };
    });
    await bus.enqueue(
      sleepJob,
      [
        { id: "once", input: { ms: 0, tag: "once" } },
        { id: "always", input: { ms: 0, tag: "always" } },
      ],
      { replyTo: "run" },
    );
    const { results, ready } = collect(bus, sleepJob, "run");
    await ready;
    await eventually("both results", () => results.length === 2);
    expect(results.find((r) => r.jobId === "once")).toMatchObject({ ok: true, attempt: 2 });
    expect(results.find((r) => r.jobId === "always")).toMatchObject({
      ok: false,
      attempt: 3,
      error: { code: "model_error" },
    });
    expect(attempts).toEqual({ once: [1, 2], always: [1, 2, 3] });
  });

  it("settles a job that exhausted its deliveries without a result as a bus_timeout failure", async () => {
    const server = await natsServer();
    const bus = await natsBus({
      servers: server.url,
      streamPrefix: "DEAD",
      ackWaitMs: 1000,
      maxDeliver: 2,
      heartbeatMs: 0,
      closeTimeoutMs: 100,
    });
    // Hangs without heart-beating: every delivery times out, as if its worker had died.
    await bus.work(
      sleepJob,
      (_input, { signal }) => new Promise((_, reject) => signal.addEventListener("abort", reject)),
    );
    await bus.enqueue(sleepJob, [{ id: "stuck", input: { ms: 0, tag: "x" } }], { replyTo: "run" });
    const { results, ready } = collect(bus, sleepJob, "run");
    await ready;
    await eventually("the dead-letter result", () => results.length === 1);
    expect(results[0]).toMatchObject({
      jobId: "stuck",
      ok: false,
      attempt: 2,
      error: { code: "bus_timeout" },
    });
    expect(results[0]!.ok === false && results[0]!.error.message).toMatch(
      /stuck: given up after 2 deliveries/,
    );
    await until("the job to be removed", async () => (await streamMessages(server.url, "DEAD_JOBS")) === 0);
  });

  it("carries a multi-megabyte trajectory (compressed) by request and by job, and names a payload that cannot fit", async () => {
    const server = await natsServer({ maxPayload: 1024 * 1024 });
    const trajectory = bigTrajectory(150);
    expect(JSON.stringify(trajectory).length).toBeGreaterThan(2 * 1024 * 1024);
    const a = await natsBus({ servers: server.url, streamPrefix: "BIG" });
    const b = await natsBus({ servers: server.url, streamPrefix: "BIG" });
    await a.handle(rollout, async () => trajectory);
    await a.work(rollout, async () => trajectory);
    const request = {
      runId: "run-big",
      task: { id: "web-olympics", domain: "web", question: "Which city hosted the first modern Olympics?" },
      groupId: "group-1",
      attempt: 0,
      library: null,
    };
    expect(await b.request(rollout, request)).toEqual(trajectory);
    await b.enqueue(rollout, [{ id: "big-job", input: request }], { replyTo: "big" });
    const { results, ready } = collect(b, rollout, "big");
    await ready;
    await eventually("the big result", () => results.length === 1);
    expect(results[0]).toEqual({ jobId: "big-job", ok: true, output: trajectory, attempt: 1 });

    // Random bytes do not compress: 2 MB of them cannot pass a 1 MB max_payload, and the error says why.
    await a.handle(text, async ({ text }) => ({ length: text.length }));
    const noise = randomBytes(1536 * 1024).toString("base64");
    const failure = b.request(text, { text: noise });
    await expect(failure).rejects.toSatisfy((error) => TfgrpoError.hasCode(error, "invalid_input"));
    await expect(failure).rejects.toThrow(
      /tfgrpo\.fixture\.text request: message is \d+ bytes after gzip compression, over the NATS server's max_payload of 1048576/,
    );
  });

  it("lets several processes set up the same streams and consumers at once", async () => {
    const server = await natsServer();
    const buses = await Promise.all(
      Array.from({ length: 4 }, (_, index) => natsBus({ servers: server.url, name: `starter-${index}` })),
    );
    await Promise.all(buses.map((bus) => bus.work(sleepJob, async ({ tag }) => ({ worker: "any", tag }))));
    const collectors = buses.map((bus, index) => collect(bus, sleepJob, `run${index}`));
    await Promise.all(collectors.map((collector) => collector.ready));
    await Promise.all(
      buses.map((bus, index) =>
        bus.enqueue(
          sleepJob,
          Array.from({ length: 5 }, (_, job) => ({
            id: `${index}-${job}`,
            input: { ms: 0, tag: `${index}` },
          })),
          { replyTo: `run${index}` },
        ),
      ),
    );
    await eventually("every result", () => collectors.every((collector) => collector.results.length === 5));
    for (const [index, collector] of collectors.entries()) {
      expect(collector.results.every((result) => result.ok && result.output.tag === `${index}`)).toBe(true);
    }
  });

  it("finishes a running job on close, and returns one still running past the close bound to the queue at once", async () => {
    const server = await natsServer();
    // A minute of ack wait: only an explicit nak can hand the abandoned job over within the test's bounds.
    const options = { servers: server.url, streamPrefix: "CLOSE", ackWaitMs: 60_000 };
    const runner = await natsBus(options);
    const first = await natsBus({ ...options, closeTimeoutMs: 5000 });
    const started: string[] = [];
    await first.work(sleepJob, async ({ ms, tag }, context) => {
      started.push(context.jobId);
      await new Promise((resolve) => setTimeout(resolve, ms));
      return { worker: "first", tag };
    });
    const { results, ready } = collect<{ worker: string }>(runner, sleepJob, "run");
    await ready;
    await runner.enqueue(sleepJob, [{ id: "graceful", input: { ms: 1000, tag: "g" } }], { replyTo: "run" });
    await eventually("the job to start", () => started.includes("graceful"));
    await first.close();
    await eventually("its result", () => results.length === 1);
    expect(results[0]).toMatchObject({
      jobId: "graceful",
      ok: true,
      output: { worker: "first" },
      attempt: 1,
    });

    const impatient = await natsBus({ ...options, closeTimeoutMs: 200 });
    await impatient.work(
      sleepJob,
      (_input, { signal, jobId }) =>
        new Promise((_, reject) => {
          started.push(jobId);
          signal.addEventListener("abort", () => reject(signal.reason));
        }),
    );
    await runner.enqueue(sleepJob, [{ id: "handed-over", input: { ms: 0, tag: "h" } }], { replyTo: "run" });
    await eventually("the job to start", () => started.includes("handed-over"));
    await impatient.close();
    const second = await natsBus(options);
    await second.work(sleepJob, async ({ tag }) => ({ worker: "second", tag }));
    await eventually("the handed-over result", () => results.length === 2, 20_000);
    // (Not asserting the attempt: nats-server 2.9 rolls the count back when it first offers a nak'ed job to the
    // closed worker's still-pending pull request.)
    expect(results[1]).toMatchObject({ jobId: "handed-over", ok: true, output: { worker: "second" } });
  });

  it("keeps working across a nats-server restart", async () => {
    const storeDir = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-restart-"));
    cleanups.push(() => rm(storeDir, { recursive: true, force: true }));
    const before = await natsServer({ storeDir });
    const options = { servers: before.url, streamPrefix: "RESTART", ackWaitMs: 2000 };
    const worker = await natsBus(options);
    await worker.work(sleepJob, async ({ tag }) => ({ worker: "w", tag }));
    const runner = await natsBus(options);
    const { results, ready } = collect(runner, sleepJob, "run");
    await ready;
    await runner.enqueue(sleepJob, [{ id: "before", input: { ms: 0, tag: "b" } }], { replyTo: "run" });
    await eventually("the first result", () => results.length === 1);

    const exited = new Promise((resolve) => before.process.once("exit", resolve));
    before.kill();
    await exited;
    // Same port, same JetStream store: a restart, not a new server.
    await natsServer({ storeDir, port: before.port });
    await until("the job to be enqueued after the restart", async () =>
      runner
        .enqueue(sleepJob, [{ id: "after", input: { ms: 0, tag: "a" } }], { replyTo: "run" })
        .then(() => true)
        .catch(() => false),
    );
    await eventually("the result after the restart", () =>
      results.some((result) => result.jobId === "after"),
    );
    // At least once: a SIGKILLed server may forget a recent ack, so "before" can come twice (onResult is idempotent).
    expect(new Set(results.map((result) => result.jobId))).toEqual(new Set(["before", "after"]));
  });

  it("a request in flight across a nats-server restart is sent again and answered once, long before its timeout", async () => {
    const storeDir = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-restart-"));
    cleanups.push(() => rm(storeDir, { recursive: true, force: true }));
    const before = await natsServer({ storeDir });
    const options = { servers: before.url, streamPrefix: "RESEND" };
    const worker = await natsBus(options);
    let calls = 0;
    await worker.handle(text, async ({ text }) => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return { length: text.length };
    });
    const caller = await natsBus(options);
    const started = Date.now();
    // One request in flight when the server dies, one sent while it is down (the client buffers it).
    const inFlight = caller.request(text, { text: "across a restart" }, { timeoutMs: 15_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const exited = new Promise((resolve) => before.process.once("exit", resolve));
    before.kill();
    await exited;
    const whileDown = caller.request(text, { text: "sent while down" }, { timeoutMs: 15_000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await natsServer({ storeDir, port: before.port });
    const answer = Promise.all([inFlight, whileDown]);
    await expect(answer).resolves.toEqual([
      { length: "across a restart".length },
      { length: "sent while down".length },
    ]);
    expect(Date.now() - started).toBeLessThan(15_000);
    // A resend carries the same request id: the worker answers it from the first run, never running it twice.
    expect(calls).toBeLessThanOrEqual(2);
  }, 30_000);

  it("isolates buses with different prefixes and aborts a request when its caller's signal does", async () => {
    const server = await natsServer();
    const a = await natsBus({ servers: server.url, streamPrefix: "ONE" });
    const b = await natsBus({ servers: server.url, streamPrefix: "TWO" });
    await a.handle(text, async ({ text }) => ({ length: text.length }));
    await expect(a.request(text, { text: "abc" })).resolves.toEqual({ length: 3 });
    await expect(b.request(text, { text: "abc" })).rejects.toSatisfy((error) =>
      TfgrpoError.hasCode(error, "not_found"),
    );

    await a.handle(sleepJob, async ({ tag }) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { worker: "slow", tag };
    });
    const controller = new AbortController();
    const call = a.request(sleepJob, { ms: 0, tag: "x" }, { signal: controller.signal });
    controller.abort(new Error("user pressed Ctrl-C"));
    await expect(call).rejects.toThrow("user pressed Ctrl-C");
  });
});
