import { describe, expect, it } from "vitest";
import { z } from "zod";
import { TfgrpoError } from "../errors.js";
import { eventually } from "../testing/bus-contract.js";
import type { JobResult } from "./bus.js";
import { createInProcessBus } from "./in-process-bus.js";
import { defineServedSubject, type ServeEvent, serveSubjects } from "./serve-subjects.js";
import { defineSubject } from "./subject.js";

const square = defineSubject("tfgrpo.test.square", z.object({ n: z.number() }), z.object({ n: z.number() }));
const shout = defineSubject(
  "tfgrpo.test.shout",
  z.object({ text: z.string() }),
  z.object({ text: z.string() }),
);

describe("serveSubjects", () => {
  it("serves request and job subjects of one role and reports each start and end", async () => {
    const bus = createInProcessBus();
    const events: ServeEvent[] = [];
    let clock = 0;
    const handle = await serveSubjects(
      bus,
      [
        defineServedSubject({
          subject: shout,
          mode: "request",
          handler: async ({ text }) => ({ text: text.toUpperCase() }),
        }),
        defineServedSubject({
          subject: square,
          mode: "job",
          concurrency: 2,
          handler: async ({ n }) => {
            if (n < 0) throw new TfgrpoError("invalid_input", "negative");
            return { n: n * n };
          },
        }),
      ],
      { onEvent: (event) => events.push(event), now: () => (clock += 5) },
    );
    await expect(bus.request(shout, { text: "hi" })).resolves.toEqual({ text: "HI" });
    const results: JobResult<{ n: number }>[] = [];
    await bus.consumeResults(square, "run", async (result) => {
      results.push(result);
    });
    await bus.enqueue(
      square,
      [
        { id: "three", input: { n: 3 } },
        { id: "minus", input: { n: -1 } },
      ],
      { replyTo: "run" },
    );
    await eventually("both results", () => results.length === 2);
    expect(results.find((result) => result.jobId === "three")).toMatchObject({ ok: true, output: { n: 9 } });
    expect(events.slice(0, 2)).toEqual([
      { type: "job-start", subject: "tfgrpo.test.shout", mode: "request" },
      { type: "job-end", subject: "tfgrpo.test.shout", mode: "request", ok: true, durationMs: 5 },
    ]);
    expect(events).toContainEqual({
      type: "job-end",
      subject: "tfgrpo.test.square",
      mode: "job",
      jobId: "three",
      attempt: 1,
      ok: true,
      durationMs: expect.any(Number),
    });
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "job-end",
        jobId: "minus",
        ok: false,
        error: expect.objectContaining({ code: "invalid_input" }),
      }),
    );
    await handle.close();
    await expect(bus.request(shout, { text: "again" })).rejects.toSatisfy((error) =>
      TfgrpoError.hasCode(error, "not_found"),
    );
    await bus.close();
  });

  it("releases the subjects it already served when a later one fails to start", async () => {
    const bus = createInProcessBus();
    const failing = { ...bus, work: async () => Promise.reject(new Error("stream unavailable")) };
    await expect(
      serveSubjects(failing, [
        defineServedSubject({ subject: shout, mode: "request", handler: async (input) => input }),
        defineServedSubject({ subject: square, mode: "job", handler: async (input) => input }),
      ]),
    ).rejects.toThrow("stream unavailable");
    await expect(bus.request(shout, { text: "x" })).rejects.toSatisfy((error) =>
      TfgrpoError.hasCode(error, "not_found"),
    );
    await bus.close();
  });
});
