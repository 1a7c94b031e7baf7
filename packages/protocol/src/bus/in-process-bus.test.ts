import { describe, expect, it } from "vitest";
import { z } from "zod";
import { TfgrpoError } from "../errors.js";
import type { JobResult } from "./bus.js";
import { createInProcessBus } from "./in-process-bus.js";
import { defineSubject } from "./subject.js";

const double = defineSubject("tfgrpo.test.double", z.object({ n: z.number() }), z.object({ n: z.number() }));

describe("in-process bus", () => {
  it("validates requests and replies at the boundary", async () => {
    const bus = createInProcessBus();
    await bus.handle(double, async ({ n }) => ({ n: n * 2 }));
    await expect(bus.request(double, { n: 2 })).resolves.toEqual({ n: 4 });
    await expect(bus.request(double, { n: "x" } as never)).rejects.toThrow(/tfgrpo.test.double input: n:/);
    await bus.close();
  });

  it("names a subject nobody serves and times out slow handlers", async () => {
    const bus = createInProcessBus();
    await expect(bus.request(double, { n: 1 })).rejects.toSatisfy((e) => TfgrpoError.hasCode(e, "not_found"));
    await bus.handle(double, () => new Promise(() => {}));
    await expect(bus.request(double, { n: 1 }, { timeoutMs: 50 })).rejects.toSatisfy((e) =>
      TfgrpoError.hasCode(e, "bus_timeout"),
    );
    await bus.close();
  });

  it("runs each job id once and holds results until the consumer reads them", async () => {
    const bus = createInProcessBus();
    let runs = 0;
    await bus.work(double, async ({ n }) => {
      runs++;
      if (n < 0) throw new TfgrpoError("invalid_input", "negative");
      return { n: n * 2 };
    });
    await bus.enqueue(
      double,
      [
        { id: "a", input: { n: 1 } },
        { id: "b", input: { n: -1 } },
        { id: "a", input: { n: 1 } },
      ],
      {
        replyTo: "run-1",
      },
    );
    await new Promise((r) => setTimeout(r, 20));
    const results: JobResult<{ n: number }>[] = [];
    await bus.consumeResults(double, "run-1", async (result) => {
      results.push(result);
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(runs).toBe(2);
    expect(results.find((r) => r.jobId === "a")).toMatchObject({ ok: true, output: { n: 2 } });
    expect(results.find((r) => r.jobId === "b")).toMatchObject({
      ok: false,
      error: { code: "invalid_input" },
    });
    await bus.close();
  });
});

describe("in-process bus isolation", () => {
  it("runs handlers and jobs outside the caller's async context, as another process would", async () => {
    const { AsyncLocalStorage } = await import("node:async_hooks");
    const storage = new AsyncLocalStorage<string>();
    const bus = createInProcessBus();
    const seen: (string | undefined)[] = [];
    await bus.handle(double, async ({ n }) => {
      seen.push(storage.getStore());
      return { n };
    });
    await bus.work(double, async ({ n }) => {
      seen.push(storage.getStore());
      return { n };
    });
    const results: JobResult<{ n: number }>[] = [];
    await storage.run("caller-context", async () => {
      await bus.request(double, { n: 1 });
      await bus.consumeResults(double, "r", async (result) => {
        results.push(result);
      });
      await bus.enqueue(double, [{ id: "j", input: { n: 2 } }], { replyTo: "r" });
      while (results.length === 0) await new Promise((r) => setTimeout(r, 5));
    });
    expect(seen).toEqual([undefined, undefined]);
    await bus.close();
  });
});
