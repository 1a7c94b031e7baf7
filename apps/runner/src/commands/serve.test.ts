import { createInProcessBus, type JobResult, TfgrpoError } from "@tfgrpo/protocol";
import { eventually } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { echoJob, echoRequest } from "../../test/fixtures/echo-role.js";
import { formatServeEvent, serve } from "./serve.js";

const at = new Date("2026-01-02T03:04:05.000Z");

describe("formatServeEvent", () => {
  it("prints one greppable line per job start and end", () => {
    const base = { subject: "tfgrpo.actor.rollout", mode: "job" as const, jobId: "t1", attempt: 2 };
    expect(formatServeEvent({ type: "job-start", ...base }, at)).toBe(
      "2026-01-02T03:04:05.000Z job-start tfgrpo.actor.rollout job=t1 attempt=2",
    );
    expect(formatServeEvent({ type: "job-end", ...base, ok: true, durationMs: 1520.4 }, at)).toBe(
      "2026-01-02T03:04:05.000Z job-end tfgrpo.actor.rollout job=t1 attempt=2 ok 1520ms",
    );
    const error = { name: "TfgrpoError", code: "model_error", message: "429\nrate limited" };
    expect(
      formatServeEvent(
        {
          type: "job-end",
          subject: "tfgrpo.critic.reward",
          mode: "request",
          ok: false,
          durationMs: 3,
          error,
        },
        at,
      ),
    ).toBe(
      "2026-01-02T03:04:05.000Z job-end tfgrpo.critic.reward request failed 3ms model_error: 429 rate limited",
    );
  });
});

describe("serve", () => {
  it("serves a role until stopped, printing each job, then finishes the job in flight", async () => {
    const bus = createInProcessBus();
    const busClose = bus.close;
    let closed = false;
    bus.close = async () => {
      closed = true;
      await busClose();
    };
    const stdout: string[] = [];
    const stderr: string[] = [];
    let stop: (signal: string) => void = () => {};
    const serving = serve(
      { role: "echo", nats: "nats://unused:4222", concurrency: 3, config: "examples/models.sim.yaml" },
      {
        connect: async () => bus,
        waitForStop: () => new Promise((resolve) => (stop = resolve)),
        stdout: (text) => stdout.push(text),
        stderr: (text) => stderr.push(text),
        isTTY: false,
        now: () => at,
      },
    );
    await eventually("the role to be served", () => stderr.some((line) => line.includes("serving")));
    expect(stderr.join("")).toContain(
      "role echo serving tfgrpo.echo.job (jobs), tfgrpo.echo.call (requests)",
    );
    await expect(bus.request(echoRequest, { text: "hi" })).resolves.toEqual({ text: "HI" });

    const results: JobResult<{ text: string; concurrency: number | null }>[] = [];
    await bus.consumeResults(echoJob, "run", async (result) => {
      results.push(result);
    });
    await bus.enqueue(
      echoJob,
      [
        { id: "quick", input: { text: "a", ms: 0 } },
        { id: "slow", input: { text: "b", ms: 300 } },
      ],
      { replyTo: "run" },
    );
    await eventually("the quick result", () => results.some((result) => result.jobId === "quick"));
    stop("SIGTERM");
    await serving;
    // The slow job was still running at the stop: it finished before serve returned.
    expect(results.map((result) => result.jobId).sort()).toEqual(["quick", "slow"]);
    expect(results[0]).toMatchObject({ ok: true, output: { text: "a", concurrency: 3 } });
    expect(stdout).toContain("2026-01-02T03:04:05.000Z job-end tfgrpo.echo.job job=slow attempt=1 ok 0ms\n");
    expect(stdout.filter((line) => line.includes(" job-start "))).toHaveLength(3);
    expect(stderr.join("")).toMatch(/SIGTERM: finishing 1 in-flight job\(s\)/);
    expect(closed).toBe(true);
  });

  it("refuses an unknown role before connecting, naming the known ones, and needs a NATS URL", async () => {
    let connected = false;
    const connect = async () => {
      connected = true;
      return createInProcessBus();
    };
    const unknown = await serve({ role: "nosuch", nats: "nats://x:1" }, { connect }).catch(
      (error: unknown) => error,
    );
    expect(TfgrpoError.hasCode(unknown, "not_found")).toBe(true);
    expect((unknown as Error).message).toMatch(/unknown role "nosuch"; known roles: .*echo/);
    expect(connected).toBe(false);
    const previous = process.env.TFGRPO_NATS_URL;
    delete process.env.TFGRPO_NATS_URL;
    await expect(serve({ role: "echo" }, { connect })).rejects.toThrow(
      /serve needs a NATS server: pass --nats/,
    );
    if (previous !== undefined) process.env.TFGRPO_NATS_URL = previous;
  });

  it("needs a models config, from --config or TFGRPO_CONFIG, before connecting: no silent default", async () => {
    let connected = false;
    const connect = async () => {
      connected = true;
      return createInProcessBus();
    };
    const previous = process.env.TFGRPO_CONFIG;
    delete process.env.TFGRPO_CONFIG;
    try {
      const missing = await serve({ role: "echo", nats: "nats://x:1" }, { connect }).catch(
        (error: unknown) => error,
      );
      expect(TfgrpoError.hasCode(missing, "invalid_config")).toBe(true);
      expect((missing as Error).message).toBe(
        "serve needs a models config: pass --config models.yaml (or set TFGRPO_CONFIG)",
      );
      expect(connected).toBe(false);
      process.env.TFGRPO_CONFIG = "examples/models.sim.yaml";
      let stop: (signal: string) => void = () => {};
      const stderr: string[] = [];
      const serving = serve(
        { role: "echo", nats: "nats://x:1" },
        {
          connect,
          waitForStop: () => new Promise((resolve) => (stop = resolve)),
          stdout: () => {},
          stderr: (text) => stderr.push(text),
          isTTY: false,
        },
      );
      await eventually("the role to be served", () => stderr.some((line) => line.includes("serving")));
      stop("SIGTERM");
      await serving;
      expect(connected).toBe(true);
    } finally {
      if (previous === undefined) delete process.env.TFGRPO_CONFIG;
      else process.env.TFGRPO_CONFIG = previous;
    }
  });
});
