import { TfgrpoError } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { createFaultPlan, drawLatency, parseFaultSpec } from "./faults.js";

describe("parseFaultSpec", () => {
  it("reads the CLI form, bare words continuing the kinds list", () => {
    expect(parseFaultSpec("rate=0.2,kinds=429,500,hang,malformed,truncated,latency=50")).toEqual({
      rate: 0.2,
      kinds: {
        rateLimit: true,
        serverError: true,
        hang: true,
        malformedJson: true,
        truncated: true,
        latency: { meanMs: 50, jitterMs: 25 },
      },
    });
  });

  it("takes seed, jitter, retry-after and hang limits", () => {
    expect(
      parseFaultSpec("rate=1,kinds=429,hang,seed=9,retryAfterMs=20,hangMs=300,latency=10,jitter=0"),
    ).toEqual({
      rate: 1,
      seed: 9,
      kinds: { rateLimit: { retryAfterMs: 20 }, hang: { maxMs: 300 }, latency: { meanMs: 10, jitterMs: 0 } },
    });
  });

  it("lets the first kind carry a value", () => {
    expect(parseFaultSpec("rate=0.1,kinds=latency=5")).toEqual({
      rate: 0.1,
      kinds: { latency: { meanMs: 5, jitterMs: 2.5 } },
    });
  });

  it("leaves kinds unset (all kinds) when none is named", () => {
    expect(parseFaultSpec("rate=0.1")).toEqual({ rate: 0.1 });
  });

  it.each([
    ["kinds=429", /rate=<0..1> is required/],
    ["rate=2", /rate must be between 0 and 1/],
    ["rate=0.1,kinds=teapot", /unknown fault kind "teapot"/],
    ["rate=x", /rate needs a non-negative number/],
  ])("refuses %s", (spec, message) => {
    expect(() => parseFaultSpec(spec)).toThrowError(message);
    try {
      parseFaultSpec(spec);
    } catch (error) {
      expect(TfgrpoError.hasCode(error, "invalid_config")).toBe(true);
    }
  });
});

describe("createFaultPlan", () => {
  it("hits about the configured share of requests, the same ones for the same seed", () => {
    const config = parseFaultSpec("rate=0.2,kinds=429,500,hang,malformed,truncated,latency=50");
    const first = createFaultPlan(config, 4);
    const second = createFaultPlan(config, 4);
    const keys = Array.from({ length: 2000 }, (_, i) => `request-${i}`);
    const a = keys.map((key) => first.choose(key));
    const b = keys.map((key) => second.choose(key));
    expect(a).toEqual(b);
    const hits = a.filter((fault) => fault !== null);
    expect(hits.length).toBeGreaterThan(2000 * 0.16);
    expect(hits.length).toBeLessThan(2000 * 0.24);
    expect(new Set(hits.map((fault) => fault!.kind))).toEqual(
      new Set(["rateLimit", "serverError", "hang", "malformedJson", "truncated", "latency"]),
    );
  });

  it("gives a retried request a fresh draw", () => {
    const plan = createFaultPlan({ rate: 0.5, kinds: { serverError: true } }, 1);
    const outcomes = Array.from({ length: 40 }, () => plan.choose("same body"));
    expect(outcomes.some((o) => o === null)).toBe(true);
    expect(outcomes.some((o) => o?.kind === "serverError")).toBe(true);
  });

  it("does nothing at rate 0", () => {
    const plan = createFaultPlan({ rate: 0 }, 1);
    expect(Array.from({ length: 100 }, (_, i) => plan.choose(String(i))).every((o) => o === null)).toBe(true);
  });
});

describe("drawLatency", () => {
  it("spreads around the mean and never goes below zero", () => {
    const draws = Array.from({ length: 1000 }, (_, i) => drawLatency({ meanMs: 100, jitterMs: 30 }, i));
    const mean = draws.reduce((s, d) => s + d, 0) / draws.length;
    expect(mean).toBeGreaterThan(90);
    expect(mean).toBeLessThan(110);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(new Set(draws).size).toBeGreaterThan(20);
    expect(drawLatency({ meanMs: 5, jitterMs: 100 }, "x")).toBeGreaterThanOrEqual(0);
  });
});
