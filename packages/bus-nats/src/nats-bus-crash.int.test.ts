import { eventually } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { sleepJob } from "../test/fixtures/fixture-subjects.js";
import {
  collect,
  natsBus,
  natsServer,
  spawnChild,
  streamMessages,
  until,
} from "../test/fixtures/nats-test-kit.js";

describe("NATS Bus with processes that crash (SIGKILL)", () => {
  it("redelivers the job of a worker killed mid-job to the other worker, and delivers its result once", async () => {
    const server = await natsServer();
    const env = { NATS_URL: server.url, STREAM_PREFIX: "KILL", ACK_WAIT_MS: "1500" };
    const workers = [
      spawnChild("worker", { ...env, NAME: "w1" }),
      spawnChild("worker", { ...env, NAME: "w2" }),
    ];
    await eventually("both workers to be ready", () =>
      workers.every((w) => w.events.some((e) => e.event === "ready")),
    );

    const runner = await natsBus({ servers: server.url, streamPrefix: "KILL", ackWaitMs: 1500 });
    await runner.enqueue(sleepJob, [{ id: "victim", input: { ms: 2000, tag: "t" } }], { replyTo: "run1" });
    await eventually("a worker to start the job", () =>
      workers.some((w) => w.events.some((e) => e.event === "start")),
    );
    const victim = workers.find((w) => w.events.some((e) => e.event === "start"))!;
    const survivor = workers.find((w) => w !== victim)!;
    victim.process.kill("SIGKILL");

    const { results, ready } = collect<{ worker: string; tag: string }>(runner, sleepJob, "run1");
    await ready;
    await eventually("the job's result", () => results.length === 1);
    expect(results[0]).toEqual({
      jobId: "victim",
      ok: true,
      output: { worker: survivor.name, tag: "t" },
      attempt: 2,
    });
    expect(survivor.events.filter((e) => e.event === "start")).toEqual([
      { event: "start", name: survivor.name, jobId: "victim", attempt: 2 },
    ]);
    // Exactly once: one result stored, and the job is gone from the work queue.
    expect(await streamMessages(server.url, "KILL_RESULTS")).toBe(1);
    await until(
      "the job to leave the work queue",
      async () => (await streamMessages(server.url, "KILL_JOBS")) === 0,
    );
  });

  it("gives a result that a crashed consumer never acked to the consumer that resumes with its replyTo", async () => {
    const server = await natsServer();
    const options = { servers: server.url, streamPrefix: "RESUME", ackWaitMs: 1500 };
    const worker = await natsBus(options);
    await worker.work(sleepJob, async ({ tag }) => ({ worker: "in-test", tag }));
    await worker.enqueue(sleepJob, [{ id: "r1", input: { ms: 0, tag: "keep" } }], { replyTo: "run7" });

    const crashing = spawnChild("consumer", {
      NATS_URL: server.url,
      STREAM_PREFIX: "RESUME",
      ACK_WAIT_MS: "1500",
      REPLY_TO: "run7",
    });
    await eventually("the consumer to receive the result", () =>
      crashing.events.some((e) => e.event === "result"),
    );
    crashing.process.kill("SIGKILL");

    const resumed = await natsBus(options);
    const { results, ready } = collect(resumed, sleepJob, "run7");
    await ready;
    await eventually("the result again", () => results.length === 1);
    expect(results[0]).toMatchObject({ jobId: "r1", ok: true, output: { tag: "keep" } });
  });

  it("leaves nothing that keeps a process alive once close() returns", async () => {
    const server = await natsServer();
    // closeTimeoutMs stays at its 30 s default: a bound that kept its timer would hold the process that long.
    const child = spawnChild("lifecycle", { NATS_URL: server.url, STREAM_PREFIX: "LIFE" });
    const exited = new Promise<number | null>((resolve) =>
      child.process.once("exit", (code) => resolve(code)),
    );
    await eventually("the child to close its bus", () => child.events.some((e) => e.event === "closed"));
    const closed = child.events.find((e) => e.event === "closed")!;
    // What a bare Node process always has (its stdio pipes) and nothing else: no timers, sockets or intervals.
    expect(closed.resources?.filter((resource) => resource !== "PipeWrap" && resource !== "TTYWrap")).toEqual(
      [],
    );
    expect(await exited).toBe(0);
  });
});
