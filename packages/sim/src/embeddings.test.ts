import { readRealLibrary } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { canonicalTokens, cosineSimilarity, embeddingToBase64, embedText } from "./embeddings.js";
import { loadLessonBank } from "./testing/lesson-bank.js";

const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
const sim = (a: string, b: string) => cosineSimilarity(embedText(a), embedText(b));

describe("embedText", () => {
  it("is deterministic, L2-normalised and sized as asked", () => {
    const v = embedText("Count both endpoints.");
    expect(v).toEqual(embedText("Count both endpoints."));
    expect(v).toHaveLength(256);
    expect(Math.hypot(...v)).toBeCloseTo(1, 9);
    expect(embedText("x", 64)).toHaveLength(64);
    expect(Math.hypot(...embedText(""))).toBeCloseTo(1, 9);
  });

  it("reads the text only: general synonyms meet, nothing else is known", () => {
    expect(canonicalTokens("confirm the figure")).toEqual(canonicalTokens("verify the value"));
    expect(canonicalTokens("the discriminant")).toEqual(["discriminant"]);
  });

  it("matches short paraphrases written by hand", () => {
    expect(
      sim("include both endpoints when counting a closed range", "count both ends of an inclusive interval"),
    ).toBeGreaterThan(0.5);
    expect(
      sim("include both endpoints when counting a closed range", "prefer the most recent census report"),
    ).toBeLessThan(0.15);
    expect(
      sim("verify the figure on the organisation's own page", "confirm the number on its primary website"),
    ).toBeGreaterThan(0.4);
  });

  it("puts lessons of one pitfall closer than lessons of different pitfalls (lessons written by someone else)", () => {
    for (const domain of ["math", "web"] as const) {
      const pitfalls = Object.values(loadLessonBank(domain, "dev").pitfalls).map((p) =>
        p.correct.slice(0, 6),
      );
      const same: number[] = [];
      const other: number[] = [];
      pitfalls.forEach((lessons, i) => {
        for (const [k, a] of lessons.entries()) {
          for (const b of lessons.slice(k + 1)) same.push(sim(a, b));
          for (const [j, others] of pitfalls.entries())
            if (j !== i) for (const b of others) other.push(sim(a, b));
        }
      });
      expect(mean(same), domain).toBeGreaterThan(mean(other) + 0.1);
      expect(mean(other), domain).toBeLessThan(0.15);
    }
  });

  it("ranks a task's lesson first among real library lines", () => {
    const library = Object.values(readRealLibrary("math"));
    const lesson =
      "When counting the multiples of k in an inclusive range, both endpoints count if they are multiples.";
    const question = embedText("How many multiples of 7 lie between 14 and 91, inclusive?");
    const scores = [lesson, ...library].map((text) => cosineSimilarity(question, embedText(text)));
    expect(scores.indexOf(Math.max(...scores))).toBe(0);
  });

  it("encodes float32 base64 as the openai client expects", () => {
    const vector = embedText("hello");
    const decoded = new Float32Array(Buffer.from(embeddingToBase64(vector), "base64").buffer.slice(0));
    expect(Array.from(decoded)[3]).toBeCloseTo(vector[3]!, 6);
  });
});
