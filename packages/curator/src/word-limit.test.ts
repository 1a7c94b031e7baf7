import { describe, expect, it } from "vitest";
import { readRealLibrary } from "./testing/index.js";
import { countWords, enforceWordLimit } from "./word-limit.js";

describe("countWords", () => {
  it("counts tokens that contain a letter or digit, not punctuation", () => {
    expect(countWords("When x = 3, check both endpoints — always.")).toBe(7);
    expect(countWords("  ")).toBe(0);
    expect(countWords("φ(N/d) over gcd(a_i, N)")).toBe(4);
  });
});

describe("enforceWordLimit", () => {
  it("leaves a text within the limit alone (whitespace normalised)", () => {
    expect(enforceWordLimit("When  in doubt,\ncheck.", 32)).toEqual({
      text: "When in doubt, check.",
      shortened: false,
      words: 4,
    });
  });

  it("cuts at a clause boundary when that keeps most of the budget", () => {
    const text =
      "When a count spans a range, include both endpoints, verify small cases by hand, and then compare with code output before answering";
    const result = enforceWordLimit(text, 16);
    expect(result.shortened).toBe(true);
    expect(result.words).toBeLessThanOrEqual(16);
    expect(result.text).toBe(
      "When a count spans a range, include both endpoints, verify small cases by hand.",
    );
  });

  it("never ends on a dangling function word", () => {
    const result = enforceWordLimit(
      "Check the table header and the units of every column to avoid mixing them up later",
      8,
    );
    expect(result.text).toBe("Check the table header and the units.");
  });

  it("brings every real over-long entry under 32 words", () => {
    const entries = [...readRealLibrary("math"), ...readRealLibrary("web")];
    const long = entries.filter((entry) => countWords(entry.text) > 32);
    expect(long).toHaveLength(13);
    for (const entry of long) {
      const result = enforceWordLimit(entry.text, 32);
      expect(result.shortened).toBe(true);
      expect(countWords(result.text)).toBeLessThanOrEqual(32);
      expect(result.text.endsWith(".")).toBe(true);
      // The kept part is the entry's own beginning, not rewritten.
      expect(entry.text.startsWith(result.text.slice(0, 40))).toBe(true);
    }
  });
});
