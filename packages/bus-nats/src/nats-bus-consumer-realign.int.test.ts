import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eventually } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { sleepJob } from "../test/fixtures/fixture-subjects.js";
import { cleanups, collect, natsBus, natsServer } from "../test/fixtures/nats-test-kit.js";

describe("NATS Bus after an unclean restart that lost the tail of a stream", () => {
  it("realigns a consumer that came back ahead of its stream, so new jobs and results are delivered", async () => {
    const storeDir = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-restart-"));
    cleanups.push(() => rm(storeDir, { recursive: true, force: true }));
    const before = await natsServer({ storeDir });
    const options = { servers: before.url, streamPrefix: "AHEAD", ackWaitMs: 5000 };
    const worker = await natsBus(options);
    await worker.work(sleepJob, async ({ tag }) => ({ worker: "w", tag }));
    const runner = await natsBus(options);
    const { results, ready } = collect(runner, sleepJob, "run");
    await ready;
    const jobs = [1, 2, 3].map((n) => ({ id: `before-${n}`, input: { ms: 0, tag: "b" } }));
    await runner.enqueue(sleepJob, jobs, { replyTo: "run" });
    await eventually("the first results", () => results.length === 3);

    // A server whose message blocks were lost (a power cut before they reached the disk) comes back with its
    // streams empty, numbered from 1 again, while its consumers remember having delivered, and seen acked, up to
    // sequence 3: the next messages sit below that. Stopped cleanly first, so the consumers' acks are on disk.
    await before.stop();
    for (const stream of ["AHEAD_JOBS", "AHEAD_RESULTS"]) {
      const blocks = path.join(storeDir, "jetstream", "$G", "streams", stream, "msgs");
      for (const file of await readdir(blocks)) await rm(path.join(blocks, file));
    }
    await natsServer({ storeDir, port: before.port });
    // Enqueued once, over a connection made after the restart: the job is sequence 1 of the emptied stream.
    const late = await natsBus(options);
    await late.enqueue(sleepJob, [{ id: "after", input: { ms: 0, tag: "a" } }], { replyTo: "run" });
    await eventually(
      "the result of the job enqueued after the restart",
      () => results.some((result) => result.jobId === "after"),
      20_000,
    );
    expect(results.find((result) => result.jobId === "after")).toMatchObject({
      ok: true,
      output: { tag: "a" },
    });
  }, 60_000);
});
