import { describe, expect, it } from "vitest";
import { applyExposure } from "./apply-exposure.js";
import type { ExperienceSelection, ScoredExperience } from "./experience-index.js";

const entry = (id: string, status: ScoredExperience["status"]): ScoredExperience => ({
  id,
  text: `lesson ${id}`,
  status,
  similarity: 0,
  utility: 0.5,
  score: 0.15,
  tokens: 10,
  contrasts: 50,
  // Settled: +0.3 over 50 groups, far from every threshold (an active entry like this is varied only in the budget).
  contrast: { n: 50, sum: 15, sumSquares: 9 },
});

const selection: ExperienceSelection = {
  mode: "all",
  shown: [entry("G1", "active"), entry("G2", "candidate"), entry("G3", "probation"), entry("G4", "active")],
  mostUseful: [entry("G1", "active"), entry("G3", "probation")],
  tokens: 80,
  budget: 1500,
  eligible: 4,
  droppedByConflictGroup: 0,
};

describe("applyExposure", () => {
  it("changes nothing without an exposure", () => {
    expect(applyExposure(selection, undefined, 0)).toEqual({ selection, withheld: [], variedSimilarity: {} });
  });

  it("splits each varied entry over the group's attempts and keeps everything else the same", () => {
    const exposure = { attempts: 4, seed: 11, activeShare: 0 };
    const arms = [0, 1, 2, 3].map((attempt) => applyExposure(selection, exposure, attempt));
    for (const id of ["G2", "G3"]) {
      const shownTo = arms.filter((arm) => arm.selection.shown.some((e) => e.id === id)).length;
      const withheldFrom = arms.filter((arm) => arm.withheld.includes(id)).length;
      expect(shownTo).toBe(2);
      expect(withheldFrom).toBe(2);
    }
    for (const arm of arms) {
      // Active entries (share 0) are never varied; a varied entry never sits in the "most useful" repetition.
      expect(arm.selection.shown.filter((e) => e.status === "active").map((e) => e.id)).toEqual(["G1", "G4"]);
      expect(arm.selection.mostUseful.map((e) => e.id)).toEqual(["G1"]);
      expect(arm.selection.tokens).toBe(80 - 10 * arm.withheld.length - 10);
      // Shown and withheld never overlap, and their union is the selection.
      const shown = arm.selection.shown.map((e) => e.id);
      expect([...shown, ...arm.withheld].sort()).toEqual(["G1", "G2", "G3", "G4"]);
    }
  });

  it("varies a share of active entries too", () => {
    const exposure = { attempts: 4, seed: 11, activeShare: 1 };
    const withheld = new Set(
      [0, 1, 2, 3].flatMap((attempt) => applyExposure(selection, exposure, attempt).withheld),
    );
    expect([...withheld].sort()).toEqual(["G1", "G2", "G3", "G4"]);
  });
});

describe("applyExposure relevance", () => {
  const similar = (id: string, status: ScoredExperience["status"], similarity: number): ScoredExperience => ({
    ...entry(id, status),
    similarity,
  });
  const wide: ExperienceSelection = {
    ...selection,
    shown: [
      similar("G1", "candidate", 0.9),
      similar("G2", "candidate", 0.1),
      similar("G3", "probation", 0.05),
      similar("G4", "active", 0.8),
      similar("G5", "active", 0.7),
      similar("G6", "candidate", 0.6),
      similar("G7", "active", 0.2),
      similar("G8", "active", 0.3),
    ],
    mostUseful: [],
  };

  it("varies an open entry in every group it is selected in, a settled one drawn into the budget only where relevant", () => {
    const arms = [0, 1, 2, 3].map((attempt) =>
      applyExposure(wide, { attempts: 4, seed: 3, activeShare: 0 }, attempt),
    );
    // Open (candidates, probation): G1, G2, G3, G6, however similar; the settled active entries are out of the budget.
    expect(new Set(arms.flatMap((arm) => arm.withheld))).toEqual(new Set(["G1", "G2", "G3", "G6"]));
    for (const id of ["G1", "G2", "G3", "G6"])
      expect(arms.filter((arm) => arm.selection.shown.some((e) => e.id === id))).toHaveLength(2);
    for (const arm of arms)
      expect(arm.selection.shown.map((e) => e.id)).toEqual(expect.arrayContaining(["G4", "G5", "G7", "G8"]));
    // Every attempt records the same similarities of the varied entries, shown or withheld (credit reads them).
    for (const arm of arms) expect(arm.variedSimilarity).toEqual({ G1: 0.9, G2: 0.1, G3: 0.05, G6: 0.6 });
    // With the whole budget, a settled entry is varied only where relevant: similarity >= 0.36 and among the top 3
    // (G1, G4, G5): G4 and G5, not G7 or G8.
    const budget = new Set(
      [0, 1, 2, 3].flatMap(
        (attempt) => applyExposure(wide, { attempts: 4, seed: 3, activeShare: 1 }, attempt).withheld,
      ),
    );
    expect([...budget].filter((id) => ["G4", "G5", "G7", "G8"].includes(id)).sort()).toEqual(["G4", "G5"]);
  });

  it("records no similarity without a similarity signal", () => {
    const arms = [0, 1, 2, 3].map((attempt) =>
      applyExposure(selection, { attempts: 4, seed: 11, activeShare: 0 }, attempt),
    );
    expect(arms.some((arm) => arm.withheld.length > 0)).toBe(true);
    for (const arm of arms) expect(arm.variedSimilarity).toEqual({});
  });

  it("varies an active entry whose decision is open wherever it is relevant, whatever the budget", () => {
    const open = { n: 10, sum: -0.5, sumSquares: 0.95 };
    const selection = {
      ...wide,
      shown: wide.shown.map((e) => (e.id === "G5" ? { ...e, contrast: open, contrasts: 10 } : e)),
    };
    const withheld = new Set(
      [0, 1, 2, 3].flatMap(
        (attempt) => applyExposure(selection, { attempts: 4, seed: 3, activeShare: 0 }, attempt).withheld,
      ),
    );
    expect(withheld.has("G5")).toBe(true);
    expect(withheld.has("G4")).toBe(false);
  });
});
