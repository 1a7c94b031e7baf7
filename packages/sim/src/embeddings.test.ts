import { readRealLibrary } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { cosineSimilarity, embeddingToBase64, embedText } from "./embeddings.js";
import { allPitfalls } from "./pitfalls/catalog.js";

const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;

describe("embedText", () => {
  it("is deterministic, L2-normalised and sized as asked", () => {
    const v = embedText("Count both endpoints.");
    expect(v).toEqual(embedText("Count both endpoints."));
    expect(v).toHaveLength(256);
    expect(Math.hypot(...v)).toBeCloseTo(1, 9);
    expect(embedText("x", 64)).toHaveLength(64);
    expect(Math.hypot(...embedText(""))).toBeCloseTo(1, 9);
  });

  it("puts paraphrases of a lesson close and lessons about other things far", () => {
    const same: number[] = [];
    const other: number[] = [];
    for (const p of allPitfalls) {
      for (const text of p.lessons.slice(1))
        same.push(cosineSimilarity(embedText(p.lessons[0]!), embedText(text)));
      for (const q of allPitfalls) {
        if (q !== p) other.push(cosineSimilarity(embedText(p.lessons[0]!), embedText(q.lessons[0]!)));
      }
    }
    expect(mean(same)).toBeGreaterThan(0.55);
    expect(mean(other)).toBeLessThan(0.2);
    expect(Math.min(...same)).toBeGreaterThan(mean(other) + 0.2);
  });

  it("matches short paraphrases written by hand", () => {
    const sim = (a: string, b: string) => cosineSimilarity(embedText(a), embedText(b));
    expect(
      sim("include both endpoints when counting a closed range", "count both ends of an inclusive interval"),
    ).toBeGreaterThan(0.5);
    expect(
      sim("include both endpoints when counting a closed range", "prefer the most recent census report"),
    ).toBeLessThan(0.15);
    expect(
      sim("verify the value on the official page", "confirm the number on the primary website"),
    ).toBeGreaterThan(0.4);
  });

  it("ranks a task's own lesson first among real library lines", () => {
    const library = Object.values(readRealLibrary("math"));
    const lesson = allPitfalls[0]!.lessons[0]!;
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
