import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Bus, JobResult } from "../bus/bus.js";
import { defineSubject } from "../bus/subject.js";
import { TfgrpoError } from "../errors.js";

/**
 * Two Buses that reach each other: for the in-process Bus the same instance twice, for NATS two connections
 * (as a runner and a worker on different machines would be). Each call must give a fresh, isolated pair.
 */
export interface BusPair {
  a: Bus;
  b: Bus;
  cleanup(): Promise<void>;
}

const double = defineSubject(
  "tfgrpo.contract.double",
  z.object({ n: z.number() }),
  z.object({ n: z.number() }),
);

/** Waits until `check` passes, polling; fails with `what` after a generous bound (a liveness bound, not a speed test). */
export async function eventually(what: string, check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function collect(bus: Bus, replyTo: string) {
  const results: JobResult<{ n: number }>[] = [];
  const ready = bus.consumeResults(double, replyTo, async (result) => {
    results.push(result);
  });
  return { results, ready, ids: () => results.map((result) => result.jobId) };
}

/**
 * The behaviour every Bus must share, whatever carries it. Run it against each implementation:
 * `busContractTests("in-process", async () => { const bus = createInProcessBus(); return { a: bus, b: bus, cleanup: () => bus.close() }; })`.
 */
export function busContractTests(name: string, createBuses: () => Promise<BusPair>): void {
  describe(`Bus contract: ${name}`, () => {
    let pair: BusPair;
    beforeEach(async () => {
      pair = await createBuses();
    });
    afterEach(async () => {
      await pair.cleanup();
    });

    it("answers a request, validating input and output and naming the field", async () => {
      await pair.a.handle(double, async ({ n }) => (n === 13 ? ({ n: "thirteen" } as never) : { n: n * 2 }));
      await expect(pair.b.request(double, { n: 21 })).resolves.toEqual({ n: 42 });

      const badInput = pair.b.request(double, { n: "x" } as never);
      await expect(badInput).rejects.toSatisfy((error) => TfgrpoError.hasCode(error, "invalid_input"));
      await expect(badInput).rejects.toThrow(/tfgrpo\.contract\.double input: n: /);

      const badOutput = pair.b.request(double, { n: 13 });
      await expect(badOutput).rejects.toSatisfy((error) => TfgrpoError.hasCode(error, "invalid_input"));
      await expect(badOutput).rejects.toThrow(/tfgrpo\.contract\.double output: n: /);
    });

    it("rethrows a handler's error with its code, message and details", async () => {
      await pair.a.handle(double, async ({ n }) => {
        if (n < 0)
          throw new TfgrpoError("conflict", "G3 already says the opposite", { details: { id: "G3" } });
        throw new Error("plain failure");
      });
      const error = await pair.b.request(double, { n: -1 }).catch((caught: unknown) => caught);
      expect(TfgrpoError.hasCode(error, "conflict")).toBe(true);
      expect(error).toMatchObject({ message: "G3 already says the opposite", details: { id: "G3" } });
      await expect(pair.b.request(double, { n: 1 })).rejects.toThrow("plain failure");
    });

    it("says not_found when nobody serves the subject", async () => {
      await expect(pair.b.request(double, { n: 1 })).rejects.toSatisfy((error) =>
        TfgrpoError.hasCode(error, "not_found"),
      );
    });

    it("times out a request nobody answers in time with bus_timeout", async () => {
      let aborted = false;
      await pair.a.handle(
        double,
        (_input, { signal }) =>
          new Promise((_resolve, reject) => {
            signal.addEventListener("abort", () => {
              aborted = true;
              reject(new Error("aborted"));
            });
          }),
      );
      await expect(pair.b.request(double, { n: 1 }, { timeoutMs: 300 })).rejects.toSatisfy((error) =>
        TfgrpoError.hasCode(error, "bus_timeout"),
      );
      // The handler is told the caller gave up, so it can stop working for nobody.
      await eventually("the handler's signal to abort", () => aborted);
    });

    it("runs a job once per id, even when it is enqueued twice", async () => {
      const runs: { jobId: string; attempt: number }[] = [];
      await pair.a.work(
        double,
        async ({ n }, context) => {
          runs.push({ jobId: context.jobId, attempt: context.attempt });
          return { n: n * 2 };
        },
        { concurrency: 1 },
      );
      const jobs = [
        { id: "j1", input: { n: 1 } },
        { id: "j2", input: { n: 2 } },
        { id: "j1", input: { n: 1 } },
      ];
      await pair.b.enqueue(double, jobs, { replyTo: "once" });
      await pair.b.enqueue(
        double,
        [
          { id: "j1", input: { n: 1 } },
          { id: "last", input: { n: 3 } },
        ],
        { replyTo: "once" },
      );
      const { results, ready, ids } = collect(pair.b, "once");
      await ready;
      // One worker slot takes jobs in order, so once "last" is back everything before it is too.
      await eventually("the result of job last", () => ids().includes("last"));
      expect(runs).toEqual([
        { jobId: "j1", attempt: 1 },
        { jobId: "j2", attempt: 1 },
        { jobId: "last", attempt: 1 },
      ]);
      expect(ids()).toEqual(["j1", "j2", "last"]);
      expect(results[0]).toEqual({ jobId: "j1", ok: true, output: { n: 2 }, attempt: 1 });
    });

    it("turns a job handler's error into an ok:false result that keeps its code", async () => {
      await pair.a.work(double, async () => {
        throw new TfgrpoError("conflict", "G3 already says the opposite", { details: { id: "G3" } });
      });
      await pair.b.enqueue(double, [{ id: "failing", input: { n: 1 } }], { replyTo: "failures" });
      const { results, ready } = collect(pair.b, "failures");
      await ready;
      await eventually("the failed result", () => results.length === 1);
      expect(results[0]).toMatchObject({
        jobId: "failing",
        ok: false,
        attempt: 1,
        error: { code: "conflict", message: "G3 already says the opposite", details: { id: "G3" } },
      });
    });

    it("rejects a job with an invalid input, naming the field", async () => {
      const enqueued = pair.b.enqueue(double, [{ id: "bad", input: { n: "x" } as never }], {
        replyTo: "bad",
      });
      await expect(enqueued).rejects.toSatisfy((error) => TfgrpoError.hasCode(error, "invalid_input"));
      await expect(enqueued).rejects.toThrow(/tfgrpo\.contract\.double input: n: /);
    });

    it("delivers results to their own replyTo only", async () => {
      await pair.a.work(double, async ({ n }) => ({ n: n * 2 }), { concurrency: 1 });
      const first = collect(pair.b, "first");
      // Not every replyTo is a valid NATS token (a run id with dots and spaces): it must route all the same.
      const second = collect(pair.b, "second run.2");
      await Promise.all([first.ready, second.ready]);
      await pair.b.enqueue(double, [{ id: "x1", input: { n: 1 } }], { replyTo: "first" });
      await pair.b.enqueue(double, [{ id: "x2", input: { n: 2 } }], { replyTo: "second run.2" });
      await pair.b.enqueue(double, [{ id: "s1", input: { n: 3 } }], { replyTo: "first" });
      await pair.b.enqueue(double, [{ id: "s2", input: { n: 4 } }], { replyTo: "second run.2" });
      // Jobs run in order, so a misrouted x2 would reach "first" before s1 does.
      await eventually(
        "both sentinel results",
        () => first.ids().includes("s1") && second.ids().includes("s2"),
      );
      expect(first.ids()).toEqual(["x1", "s1"]);
      expect(second.ids()).toEqual(["x2", "s2"]);
    });

    it("holds results until a consumer for their replyTo appears", async () => {
      await pair.a.work(double, async ({ n }) => ({ n: n * 2 }), { concurrency: 1 });
      await pair.b.enqueue(double, [{ id: "held", input: { n: 5 } }], { replyTo: "late" });
      await pair.b.enqueue(double, [{ id: "marker", input: { n: 6 } }], { replyTo: "early" });
      const early = collect(pair.b, "early");
      await early.ready;
      // One worker slot: "marker" ran after "held" was finished and its result stored, with nobody listening.
      await eventually("the marker result", () => early.ids().includes("marker"));
      const late = collect(pair.b, "late");
      await late.ready;
      await eventually("the held result", () => late.results.length === 1);
      expect(late.results[0]).toEqual({ jobId: "held", ok: true, output: { n: 10 }, attempt: 1 });
    });

    it("redelivers a result whose onResult failed", async () => {
      await pair.a.work(double, async ({ n }) => ({ n: n * 2 }));
      let calls = 0;
      const stored: JobResult<{ n: number }>[] = [];
      await pair.b.consumeResults(double, "flaky", async (result) => {
        calls++;
        if (calls === 1) throw new Error("database is locked");
        stored.push(result);
      });
      await pair.b.enqueue(double, [{ id: "retry-me", input: { n: 7 } }], { replyTo: "flaky" });
      await eventually("the redelivered result", () => stored.length === 1);
      expect(calls).toBe(2);
      expect(stored[0]).toEqual({ jobId: "retry-me", ok: true, output: { n: 14 }, attempt: 1 });
    });
  });
}
