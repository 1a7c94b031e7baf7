import { describe, expect, it } from "vitest";
import { passHatK, passHatKs, reportsPassHat } from "./pass-hat-k.js";

describe("pass^k", () => {
  it("is C(c,k)/C(n,k)", () => {
    expect(passHatK(4, 4, 4)).toBe(1);
    expect(passHatK(4, 3, 4)).toBe(0);
    expect(passHatK(4, 2, 1)).toBe(0.5);
    expect(passHatK(4, 3, 2)).toBeCloseTo(3 / 6, 12);
    expect(passHatK(8, 5, 3)).toBeCloseTo(10 / 56, 12);
    expect(passHatK(4, 0, 1)).toBe(0);
    expect(() => passHatK(3, 1, 4)).toThrow(RangeError);
  });
  it("reports k = 1..4 within the trials taken, for conversational tasks", () => {
    expect(passHatKs(8)).toEqual([1, 2, 3, 4]);
    expect(passHatKs(2)).toEqual([1, 2]);
    expect(reportsPassHat([{ meta: { userScenario: "You are ..." } }])).toBe(true);
    expect(reportsPassHat([{ meta: { family: "x" } }, {}])).toBe(false);
  });
});
