import type { Experience } from "@tfgrpo/protocol";
import { makeExperience } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { retrievalConfigSchema } from "./actor-config.js";
import { embedLibraryEntries } from "./embed-library-entries.js";
import { createExperienceIndex } from "./experience-index.js";

const config = retrievalConfigSchema.parse({});
const ids = (list: readonly { id: string }[]) => list.map((entry) => entry.id);

/** Unit vectors with chosen cosines: a task equal to a clause's vector has cosine 1 with it. */
const axis = (...values: number[]) => {
  const vector = Float32Array.from(values);
  const norm = Math.hypot(...values);
  return vector.map((value) => value / norm);
};
const vectors: Record<string, Float32Array> = {
  "When combining group means into one mean, weight each mean by its group's size.": axis(1, 0, 0, 0, 0),
  "every group has the same size": axis(0.3, 1, 0, 0, 0),
  "When a price changes by several percentages in turn, apply each to the new price.": axis(0, 0, 1, 0, 0),
  "only one percentage change is applied": axis(0, 0, 0.3, 1, 0),
  "When counting, list small cases first.": axis(0, 0, 0, 0, 1),
};
const vectorOf = (text: string) => {
  const vector = vectors[text];
  if (!vector) throw new Error(`no test vector for "${text}"`);
  return vector;
};

function library(extra: Partial<Experience>[] = []): Experience[] {
  return [
    makeExperience({
      id: "G1",
      text: "When combining group means into one mean, weight each mean by its group's size.",
      scope: { whenNot: "every group has the same size" },
    }),
    makeExperience({
      id: "G2",
      text: "When a price changes by several percentages in turn, apply each to the new price.",
      scope: { whenNot: "only one percentage change is applied" },
    }),
    makeExperience({ id: "G3", text: "When counting, list small cases first." }),
    ...extra.map((fields, index) => makeExperience({ id: `G${10 + index}`, ...fields })),
  ];
}

const withEmbeddings = {
  embeddingOf: (experience: Experience) => vectorOf(experience.text),
  whenNotEmbeddingOf: (experience: Experience) =>
    experience.scope?.whenNot ? vectorOf(experience.scope.whenNot) : undefined,
};

describe("retrieval reads scope.whenNot", () => {
  it("leaves out the entry whose whenNot the task matches, and only that one", () => {
    const index = createExperienceIndex({ experiences: library(), config, ...withEmbeddings });
    // A task about equal-sized groups: close to G1's exclusion, closer to it than to G1's own text.
    const selection = index.select(axis(0.4, 1, 0.2, 0, 0), "Three classes of 30 students each ...");
    expect(ids(selection.shown)).toEqual(["G2", "G3"]);
    expect(selection.droppedByScope).toBe(1);
  });

  it("keeps an entry for a task closer to its own text than to its exclusion", () => {
    const index = createExperienceIndex({ experiences: library(), config, ...withEmbeddings });
    // Same topic as the exclusion (cosine above the floor), but the entry's own situation is closer.
    const selection = index.select(axis(1, 0.8, 0, 0, 0), "Classes of 20 and 30 students ...");
    expect(ids(selection.shown)).toEqual(["G1", "G2", "G3"]);
    expect(selection.droppedByScope).toBeUndefined();
  });

  it("keeps every entry for a task far from all exclusions (unmatched entries are unaffected)", () => {
    const index = createExperienceIndex({ experiences: library(), config, ...withEmbeddings });
    const unscoped = createExperienceIndex({
      experiences: library().map(({ scope: _scope, ...rest }) => rest),
      config,
      embeddingOf: withEmbeddings.embeddingOf,
    });
    const task = axis(0.1, 0, 0.1, 0, 1);
    expect(index.select(task, "How many ways ...")).toEqual(unscoped.select(task, "How many ways ..."));
  });

  it("leaves the entry out in top-k retrieval even when it is the most similar", () => {
    const many = Array.from({ length: 60 }, (_, n) => ({
      text: "When counting, list small cases first.",
      stats: { shown: 5, success: 2 + (n % 3), sumDelta: 0, lastUsedVersion: 1 },
    }));
    const index = createExperienceIndex({
      experiences: library(many),
      config: { ...config, topK: 5 },
      ...withEmbeddings,
    });
    const selection = index.select(axis(0.4, 1, 0, 0, 0), "Equal groups ...");
    expect(selection.mode).toBe("top-k");
    expect(ids(selection.shown)).not.toContain("G1");
    expect(selection.droppedByScope).toBe(1);
  });

  it("lets the other member of a conflict group take the place of an out-of-scope one", () => {
    const experiences = library().map((entry) =>
      entry.id === "G1" || entry.id === "G3" ? { ...entry, conflictGroup: "means" } : entry,
    );
    const index = createExperienceIndex({ experiences, config, ...withEmbeddings });
    expect(ids(index.select(axis(1, 0, 0, 0, 0), "").shown)).toEqual(["G1", "G2"]);
    const selection = index.select(axis(0.4, 1, 0.2, 0, 0), "");
    expect(ids(selection.shown)).toEqual(["G2", "G3"]);
    expect(selection.droppedByConflictGroup).toBe(0);
  });

  it("without embeddings, matches a clause only when the task states every one of its words", () => {
    const index = createExperienceIndex({ experiences: library(), config });
    const equal = index.select(null, "Every group has the same size, 30 students; the means are 70, 80, 90.");
    expect(ids(equal.shown)).toEqual(["G2", "G3"]);
    // Shares "group" and "size" with the clause but says the opposite: kept.
    const unequal = index.select(null, "The groups have different sizes: 20 and 30 students.");
    expect(ids(unequal.shown)).toEqual(["G1", "G2", "G3"]);
    expect(ids(index.select(null).shown)).toEqual(["G1", "G2", "G3"]);
  });

  it("embeds entry texts and whenNot clauses in one call", async () => {
    const calls: string[][] = [];
    const embedded = await embedLibraryEntries(
      {
        embed: async (texts) => {
          calls.push([...texts]);
          return texts.map(vectorOf);
        },
        peek: () => undefined,
        size: 0,
      },
      library([{ text: "archived", status: "archived", scope: { whenNot: "never embedded" } }]),
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]).toHaveLength(5);
    const [g1] = library();
    expect(embedded.whenNotEmbeddingOf(g1!)).toEqual(vectorOf("every group has the same size"));
    expect(embedded.embeddingOf(g1!)).toEqual(vectorOf(g1!.text));
  });
});
