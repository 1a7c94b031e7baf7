import { describe, expect, it } from "vitest";
import { contrastSequence } from "./contrast-sequence.js";
import { harmTest } from "./harm-test.js";

const counters = (n: number, mean: number, spread = 0.3) => ({
  n,
  sum: n * mean,
  sumSquares: n * (mean * mean + spread * spread),
});
const options = { effect: 0.15, alpha: 0.1, margin: 0 };

describe("harmTest", () => {
  it("is the Gaussian likelihood ratio of an even mixture of the alternative and twice it, plug-in variance", () => {
    expect(harmTest(counters(0, 0), options)).toEqual({
      logRatio: 0,
      threshold: Math.log(10),
      harmful: false,
    });
    // 35 groups at -0.15, spread 0.3: variance (35 x 0.09 + 2 x 0.2) / 36; per alternative d the log ratio is
    // (d x 5.25 - 35 d^2 / 2) / variance; the mixture's is the log of the two ratios' mean.
    const variance = (35 * 0.09 + 0.4) / 36;
    const single = (d: number) => Math.exp((d * 5.25 - (35 * d * d) / 2) / variance);
    const result = harmTest(counters(35, -0.15), options);
    expect(result.logRatio).toBeCloseTo(Math.log((single(0.15) + single(0.3)) / 2), 9);
    expect(result.harmful).toBe(true);
  });

  it("calls a harm near its alternative where the two-sided sequence at the same level still straddles 0", () => {
    const evidence = counters(16, -0.2);
    expect(harmTest(evidence, options).harmful).toBe(true);
    expect(contrastSequence(evidence).upper).toBeGreaterThan(0);
  });

  it("drifts away from harm for a mean above half the alternative, and the margin shifts the null", () => {
    expect(harmTest(counters(200, 0), options).logRatio).toBeLessThan(
      harmTest(counters(20, 0), options).logRatio,
    );
    expect(harmTest(counters(200, -0.05), options).harmful).toBe(false);
    expect(harmTest(counters(35, -0.15), { ...options, margin: 0.1 }).harmful).toBe(false);
  });
});
