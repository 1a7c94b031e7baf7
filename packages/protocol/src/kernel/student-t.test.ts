import { describe, expect, it } from "vitest";
import { incompleteBeta, normalCdf, studentTCdf, studentTQuantile } from "./student-t.js";

describe("Student t", () => {
  it("matches tabled quantiles", () => {
    // Values from standard t tables (one-sided 0.95 and 0.975).
    expect(studentTQuantile(0.95, 1)).toBeCloseTo(6.3138, 3);
    expect(studentTQuantile(0.95, 10)).toBeCloseTo(1.8125, 3);
    expect(studentTQuantile(0.95, 29)).toBeCloseTo(1.6991, 3);
    expect(studentTQuantile(0.975, 29)).toBeCloseTo(2.0452, 3);
    expect(studentTQuantile(0.05, 29)).toBeCloseTo(-1.6991, 3);
    expect(studentTQuantile(0.95, Number.POSITIVE_INFINITY)).toBeCloseTo(1.6449, 3);
  });

  it("has a CDF that is symmetric, monotone and tends to the normal", () => {
    expect(studentTCdf(0, 5)).toBeCloseTo(0.5, 10);
    expect(studentTCdf(1.3, 7) + studentTCdf(-1.3, 7)).toBeCloseTo(1, 10);
    expect(studentTCdf(2, 3)).toBeLessThan(studentTCdf(2, 30));
    expect(studentTCdf(1.5, 1e6)).toBeCloseTo(normalCdf(1.5), 5);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
  });

  it("computes the incomplete beta on both sides of its mean", () => {
    // I_x(1, 1) = x; I_x(2, 1) = x^2.
    expect(incompleteBeta(0.3, 1, 1)).toBeCloseTo(0.3, 10);
    expect(incompleteBeta(0.9, 2, 1)).toBeCloseTo(0.81, 10);
    expect(incompleteBeta(0, 2, 3)).toBe(0);
    expect(incompleteBeta(1, 2, 3)).toBe(1);
  });

  it("refuses a probability outside (0, 1)", () => {
    expect(() => studentTQuantile(1, 5)).toThrow(/p must be in/);
  });
});
