import { createInProcessBus, defineSubject, type JobResult } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runJobs } from "./run-jobs.js";

const square = defineSubject("tfgrpo.test.square", z.object({ n: z.number() }), z.object({ n: z.number() }), {
  modes: ["job"],
});

/** A worker whose jobs finish only when the test lets them, in the order the test chooses. */
async function heldWorker(bus: ReturnType<typeof createInProcessBus>) {
  const held = new Map<number, () => void>();
  const arrived: number[] = [];
  let notify: (() => void) | undefined;
  const handle = await bus.work(
    square,
    async ({ n }) => {
      await new Promise<void>((resolve) => {
        held.set(n, resolve);
        arrived.push(n);
        notify?.();
      });
      return { n: n * n };
    },
    { concurrency: 16 },
  );
  return {
    handle,
    /** Waits (bounded) until the worker holds every job in `ns`. */
    async holding(ns: number[]) {
      const deadline = Date.now() + 10_000;
      while (!ns.every((n) => held.has(n))) {
        if (Date.now() > deadline)
          throw new Error(`worker never held ${ns.join(", ")} (held ${arrived.join(", ")})`);
        await new Promise<void>((resolve) => {
          notify = resolve;
          setTimeout(resolve, 50);
        });
      }
    },
    release(n: number) {
      held.get(n)!();
    },
  };
}

const jobs = (ns: number[]) => ns.map((n) => ({ id: `job-${n}`, input: { n } }));

describe("runJobs in flight at once on one replyTo", () => {
  it("each call gets its own results, whichever arrives first, through one consumer", async () => {
    const bus = createInProcessBus();
    const worker = await heldWorker(bus);
    const stored = new Map<string, number[]>();
    const run = (name: string, ns: number[]) =>
      runJobs({
        bus,
        subject: square,
        replyTo: "run-1",
        jobs: jobs(ns),
        isDone: async () => false,
        onResult: async (result: JobResult<{ n: number }>) => {
          if (!result.ok) throw new Error("job failed");
          stored.set(name, [...(stored.get(name) ?? []), result.output.n]);
        },
      });
    const first = run("first", [1, 2]);
    const second = run("second", [3, 4]);
    await worker.holding([1, 2, 3, 4]);
    // The second call's results come back before the first call's: the in-process Bus keeps one consumer per
    // replyTo, so before the shared consumer the first call's results went to the second call's consumer.
    worker.release(3);
    worker.release(4);
    await second;
    worker.release(2);
    worker.release(1);
    await first;
    expect(stored.get("first")?.sort()).toEqual([1, 4]);
    expect(stored.get("second")?.sort()).toEqual([16, 9].sort());
    await worker.handle.close();
    await bus.close();
  });

  it("a job both calls wait for (run once by the Bus) counts for both; a later call opens the consumer again", async () => {
    const bus = createInProcessBus();
    const worker = await heldWorker(bus);
    const results: string[] = [];
    const run = (ns: number[]) =>
      runJobs({
        bus,
        subject: square,
        replyTo: "run-2",
        jobs: jobs(ns),
        isDone: async () => false,
        onResult: async (result) => {
          results.push(result.jobId);
        },
      });
    const first = run([5, 6]);
    await worker.holding([5, 6]);
    const second = run([6, 7]);
    await worker.holding([7]);
    worker.release(5);
    worker.release(6);
    await first;
    worker.release(7);
    await second;
    expect(results.filter((id) => id === "job-6").length).toBeGreaterThanOrEqual(1);
    expect(new Set(results)).toEqual(new Set(["job-5", "job-6", "job-7"]));

    const third = run([8]);
    await worker.holding([8]);
    worker.release(8);
    await third;
    expect(results).toContain("job-8");
    await worker.handle.close();
    await bus.close();
  });
});
