import { estimateTokens } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import type { Suggestion } from "./consolidation-prepass.js";
import { suggestionLine } from "./consolidation-prompt.js";
import { hashingEmbed } from "./hashing-embedder.js";
import { planConsolidationChunks } from "./plan-consolidation-chunks.js";
import { createSimilarityIndex } from "./similarity-index.js";
import { readRealLibrary } from "./testing/index.js";

// Six wordings of one lesson (weight group means by group size), none a near duplicate of another.
const paraphrases = [
  "When averaging the means of several groups, weight each group's mean by its size.",
  "For a combined mean of groups of different sizes, weight every group mean by how many members it has.",
  "When groups differ in size, the overall mean weights each group mean by the group size, not one vote per group.",
  "Combining group averages: multiply each group mean by its size, add them, divide by the total size.",
  "When pooling group means, sum size times mean over the groups and divide by the total count.",
  "For the mean of several groups taken together, a larger group's mean counts more: weight it by its size.",
];
// Unrelated lessons (the real math library), the rest of the batch.
const fillers = readRealLibrary("math").map((entry) => entry.text);

/** A batch in task order: the fillers, with the paraphrases spread evenly through them. */
function batch(): Suggestion[] {
  const texts = [...fillers];
  for (const [index, text] of paraphrases.entries()) texts.splice(index * 6, 0, text);
  return texts.map((text, index) => ({
    tempId: `P${index + 1}`,
    option: "add",
    text,
    reason: `proposal ${index + 1}`,
    sources: [`p${index + 1}`],
  }));
}

function plan(suggestions: readonly Suggestion[], maxPromptTokens: number, groupSimilarity = 0.4) {
  const vectors = new Map(suggestions.map((s) => [s.text!, hashingEmbed(s.text!)]));
  return planConsolidationChunks({
    domain: "math",
    live: [],
    suggestions,
    vectors,
    wordLimit: 32,
    maxPromptTokens,
    contextNeighbours: 4,
    indexSeed: 17,
    groupSimilarity,
  });
}

describe("planConsolidationChunks", () => {
  it("puts paraphrases that arrived far apart into one chunk", () => {
    const suggestions = batch();
    // The paraphrases are no near duplicates: the pre-pass (cosine >= 0.9) would keep them all.
    const vectors = paraphrases.map((text) => hashingEmbed(text));
    const index = createSimilarityIndex(vectors);
    for (let a = 0; a < vectors.length; a++)
      for (let b = a + 1; b < vectors.length; b++) expect(index.similarity(a, b)).toBeLessThan(0.9);
    const chunkOf = (chunks: ReturnType<typeof plan>) =>
      new Set(
        paraphrases.map((text) =>
          chunks.findIndex((chunk) => chunk.items.some((item) => item.text === text)),
        ),
      );
    // Arrival order would spread them: packing the batch as it came puts them in several chunks.
    const chunks = plan(suggestions, 1400);
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    const byArrival = plan(suggestions, 1400, 1.01);
    expect(chunkOf(byArrival).size).toBeGreaterThan(1);
    expect(chunkOf(chunks).size).toBe(1);
  });

  it("never exceeds the budget and places every suggestion exactly once", () => {
    const suggestions = batch();
    for (const budget of [1300, 1600, 2200]) {
      const chunks = plan(suggestions, budget);
      for (const chunk of chunks) {
        expect(chunk.oversize).toBe(false);
        expect(chunk.tokens).toBeLessThanOrEqual(budget);
      }
      expect(chunks.flatMap((chunk) => chunk.items.map((item) => item.tempId)).sort()).toEqual(
        suggestions.map((s) => s.tempId).sort(),
      );
    }
  });

  it("splits a group larger than a chunk, keeping its most similar members together", () => {
    // Two tight trios of one wide topic, interleaved in arrival order: with room for three, each trio stays whole.
    const trios = [
      "When rounding money, round once at the end of the calculation.",
      "When rounding intermediate results, keep full precision until the final answer.",
      "When rounding money amounts, round only once, at the end of the calculation.",
      "When rounding intermediate values, keep them at full precision until the final answer.",
      "When rounding money in a long calculation, round at the end, once.",
      "When rounding partial results, keep full precision and round only the final answer.",
    ];
    const suggestions: Suggestion[] = trios.map((text, index) => ({
      tempId: `P${index + 1}`,
      option: "add",
      text,
      reason: "r",
      sources: [`p${index}`],
    }));
    const vectors = new Map(suggestions.map((s) => [s.text!, hashingEmbed(s.text!)]));
    const whole = planConsolidationChunks({
      domain: "math",
      live: [],
      suggestions,
      vectors,
      wordLimit: 32,
      maxPromptTokens: 100_000,
      contextNeighbours: 0,
      indexSeed: 17,
      groupSimilarity: 0.3,
    });
    expect(whole).toHaveLength(1);
    const lineTokens = suggestions.map((s) => estimateTokens(`${suggestionLine(s, 32)},\n`));
    const overhead = whole[0]!.tokens - lineTokens.reduce((sum, tokens) => sum + tokens, 0);
    // Room for the overhead and the three longest lines, not for a fourth.
    const three = [...lineTokens].sort((x, y) => y - x).slice(0, 3);
    const room = three.reduce((sum, tokens) => sum + tokens, 0);
    expect(Math.min(...lineTokens)).toBeGreaterThan(5);
    const chunks = planConsolidationChunks({
      domain: "math",
      live: [],
      suggestions,
      vectors,
      wordLimit: 32,
      maxPromptTokens: overhead + room + 5,
      contextNeighbours: 0,
      indexSeed: 17,
      groupSimilarity: 0.3,
    });
    expect(chunks.map((chunk) => chunk.items.map((item) => item.tempId))).toEqual([
      ["P1", "P3", "P5"],
      ["P2", "P4", "P6"],
    ]);
  });

  it("is deterministic: the same batch gives the same chunks", () => {
    const first = plan(batch(), 1400);
    const second = plan(batch(), 1400);
    expect(second.map((chunk) => chunk.items.map((item) => item.tempId))).toEqual(
      first.map((chunk) => chunk.items.map((item) => item.tempId)),
    );
  });
});
