import { type Experience, estimateTokens } from "@tfgrpo/protocol";
import { makeExperience } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { retrievalConfigSchema } from "./actor-config.js";
import { renderExperienceBlock } from "./experience-block.js";
import { createExperienceIndex } from "./experience-index.js";
import { hashedEmbedding, realExperiences } from "./testing/index.js";

const config = retrievalConfigSchema.parse({});
const embeddingOf = (experience: Experience) => hashedEmbedding(experience.text);
const ids = (list: { id: string }[]) => list.map((entry) => entry.id);

/** The two real libraries, renumbered into one big library of `size` entries with varied wording. */
function bigLibrary(size: number): Experience[] {
  const texts = [...realExperiences("math"), ...realExperiences("web")].map((entry) => entry.text);
  return Array.from({ length: size }, (_, index) =>
    makeExperience({
      id: `G${index}`,
      text: `${texts[index % texts.length]} (variant ${Math.floor(index / texts.length)})`,
    }),
  );
}

describe("createExperienceIndex, small library (all active shown)", () => {
  it("shows every active entry of the real math library, sorted by id, plus candidates up to the threshold", () => {
    const experiences = [
      ...realExperiences("math"),
      makeExperience({
        id: "G30",
        text: "When a count is asked, list small cases by code first.",
        status: "candidate",
      }),
      makeExperience({ id: "G31", text: "Check units before answering.", status: "candidate" }),
      makeExperience({ id: "G32", text: "An archived lesson.", status: "archived" }),
    ];
    const selection = createExperienceIndex({ experiences, config, embeddingOf }).select(
      hashedEmbedding("How many grid paths are there?"),
    );
    expect(selection.mode).toBe("all");
    expect(ids(selection.shown)).toEqual([
      ...Array.from({ length: 27 }, (_, index) => `G${index}`),
      "G30",
      "G31",
    ]);
    expect(selection.eligible).toBe(29);
    expect(selection.tokens).toBeLessThanOrEqual(selection.budget);
    // One budget for what is shown and what the curator keeps active: the token budget, in all mode too.
    expect(selection.budget).toBe(1500);
  });

  it("adds only the best candidate when the active entries fill the threshold", () => {
    const experiences = [
      ...realExperiences("math"),
      makeExperience({ id: "G40", text: "Unrelated lesson about cooking pasta.", status: "candidate" }),
      makeExperience({
        id: "G41",
        text: "For grid paths, enumerate small grids by code before generalising.",
        status: "candidate",
      }),
    ];
    const index = createExperienceIndex({
      experiences,
      config: { ...config, allActiveThreshold: 27 },
      embeddingOf,
    });
    const selection = index.select(hashedEmbedding("Count the grid paths on a small grid by enumeration."));
    expect(ids(selection.shown)).toContain("G41");
    expect(ids(selection.shown)).not.toContain("G40");
    expect(selection.shown).toHaveLength(28);
  });

  it("shows one entry per conflict group, the better-scoring one", () => {
    const experiences = [
      makeExperience({
        id: "G1",
        text: "Always simplify radicals before comparing them.",
        conflictGroup: "radicals",
      }),
      makeExperience({
        id: "G2",
        text: "Never simplify radicals; compare numerically.",
        conflictGroup: "radicals",
        stats: { shown: 40, success: 30, sumDelta: 12, lastUsedVersion: 3 },
      }),
      makeExperience({
        id: "G3",
        text: "Check the domain of a logarithm.",
        stats: { shown: 40, success: 20, sumDelta: 0, lastUsedVersion: 3 },
      }),
    ];
    // G1 was never shown, so its UCB utility is maximal and it wins the group.
    const selection = createExperienceIndex({ experiences, config }).select(null);
    expect(ids(selection.shown)).toEqual(["G1", "G3"]);
    expect(selection.droppedByConflictGroup).toBe(1);
  });

  it("trims to the share-of-system-prompt cap, keeping the best entries", () => {
    const experiences = realExperiences("web");
    const index = createExperienceIndex({
      experiences,
      config: { ...config, systemPromptTokenLimit: 1000 },
      embeddingOf,
    });
    const selection = index.select(hashedEmbedding("verify sources with official documentation"));
    expect(selection.budget).toBe(400);
    expect(selection.shown.length).toBeGreaterThan(0);
    expect(selection.shown.length).toBeLessThan(experiences.length);
    expect(selection.tokens).toBeLessThanOrEqual(400);
    expect(estimateTokens(renderExperienceBlock(selection.shown, selection.mostUseful))).toBeLessThanOrEqual(
      400,
    );
  });

  it("returns mode none for an empty or all-archived library", () => {
    const archived = [makeExperience({ id: "G0", text: "Old.", status: "archived" })];
    expect(createExperienceIndex({ experiences: archived, config }).select(null).mode).toBe("none");
    expect(createExperienceIndex({ experiences: [], config }).select(null).shown).toEqual([]);
  });
});

describe("createExperienceIndex, large library (top-k retrieval)", () => {
  const library = bigLibrary(600);
  const index = createExperienceIndex({ experiences: library, config, embeddingOf });

  it("retrieves entries similar to the task, within the 1500-token budget and top-k", () => {
    const selection = index.select(
      hashedEmbedding(
        "Trigonometric simplification: identify complementary angle pairs and apply trigonometric identities",
      ),
    );
    expect(selection.mode).toBe("top-k");
    expect(selection.budget).toBe(1500);
    expect(selection.shown.length).toBeLessThanOrEqual(config.topK);
    expect(selection.tokens).toBeLessThanOrEqual(1500);
    const rendered = renderExperienceBlock(selection.shown, selection.mostUseful);
    expect(estimateTokens(rendered)).toBeLessThanOrEqual(selection.tokens);
    const trig = selection.shown.filter((entry) => entry.text.startsWith("Trigonometric simplification"));
    expect(trig.length).toBeGreaterThan(0);
    // Every variant of the matching entry outranks every unrelated entry.
    const best = [...selection.shown].sort((a, b) => b.score - a.score).slice(0, trig.length);
    expect(best.every((entry) => entry.text.startsWith("Trigonometric simplification"))).toBe(true);
    // Sorted by numeric id, so prompt order does not depend on scores.
    const numbers = selection.shown.map((entry) => Number(entry.id.slice(1)));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  });

  it("stops at the token budget when it is the tighter limit", () => {
    const tight = createExperienceIndex({
      experiences: library,
      config: { ...config, tokenBudget: 300 },
      embeddingOf,
    }).select(hashedEmbedding("geometry"));
    expect(tight.tokens).toBeLessThanOrEqual(300);
    expect(tight.shown.length).toBeGreaterThan(2);
    expect(tight.shown.length).toBeLessThan(config.topK);
  });

  it("always includes the best candidate, even when it ranks low", () => {
    const experiences = [
      ...library,
      makeExperience({
        id: "G900",
        text: "Lesson about cooking pasta al dente.",
        status: "candidate",
        stats: { shown: 500, success: 0, sumDelta: -200, lastUsedVersion: 2 },
      }),
    ];
    const selection = createExperienceIndex({ experiences, config, embeddingOf }).select(
      hashedEmbedding("geometry verification"),
    );
    expect(ids(selection.shown)).toContain("G900");
  });

  it("ranks by utility when there is no task embedding, favouring never-shown entries", () => {
    const experiences = library
      .slice(0, 100)
      .map((entry, index) =>
        index === 7
          ? entry
          : { ...entry, stats: { shown: 30, success: 10, sumDelta: -5, lastUsedVersion: 1 } },
      );
    const selection = createExperienceIndex({ experiences, config: { ...config, topK: 1 } }).select(null);
    expect(ids(selection.shown)).toEqual(["G7"]);
  });

  it("repeats the entries with the best observed usefulness, whatever the task", () => {
    const experiences = library.map((entry) => {
      if (entry.id === "G74")
        return { ...entry, stats: { shown: 50, success: 45, sumDelta: 20, lastUsedVersion: 2 } };
      if (entry.id === "G1")
        return { ...entry, stats: { shown: 50, success: 40, sumDelta: 10, lastUsedVersion: 2 } };
      // Promising but unproven: shown too rarely to count.
      if (entry.id === "G147")
        return { ...entry, stats: { shown: 2, success: 2, sumDelta: 1, lastUsedVersion: 2 } };
      return { ...entry, stats: { shown: 50, success: 20, sumDelta: -5, lastUsedVersion: 2 } };
    });
    const index = createExperienceIndex({ experiences, config, embeddingOf });
    const selection = index.select(
      hashedEmbedding("Trigonometric simplification of complementary angle pairs"),
    );
    const shownIds = new Set(ids(selection.shown));
    expect(shownIds.has("G1") && shownIds.has("G74") && shownIds.has("G147")).toBe(true);
    expect(ids(selection.mostUseful)).toEqual(["G74", "G1"]);
    expect(selection.tokens).toBeLessThanOrEqual(selection.budget);
  });

  it("repeats nothing while no entry has proven useful", () => {
    const selection = index.select(hashedEmbedding("geometry"));
    expect(selection.mostUseful).toEqual([]);
  });

  it("rejects a task embedding of another size", () => {
    expect(() => index.select(new Float32Array(10))).toThrow(/10 dimensions.*256/);
  });
});
