import { emptyExperienceStats } from "@tfgrpo/protocol";
import { makeExperience } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { applyConflictPlan } from "./apply-conflict-plan.js";
import { type ConflictEntry, detectConflictPairs } from "./detect-conflict-pairs.js";
import { hashingEmbed } from "./hashing-embedder.js";
import { planConflictResolution } from "./plan-conflict-resolution.js";
import { projectLibrary } from "./project-library.js";

const entry = (key: string, text: string, extra: Partial<ConflictEntry> = {}): ConflictEntry => ({
  key,
  label: key,
  text,
  status: "active",
  stats: emptyExperienceStats(),
  ...extra,
});

const settings = { topicSimilarity: 0.5, ruleScanMinSimilarity: 0.3, neighbours: 5, maxModelChecks: 10 };

describe("detectConflictPairs", () => {
  const entries = [
    entry("G1", "When counting integers in a closed range, always include both endpoints."),
    entry("G2", "When counting integers in a closed range, exclude both endpoints."),
    entry("G3", "When a search result is a forum post, confirm it against an official source."),
    entry("G4", "When a search result is a forum post, trust it if it is upvoted."),
    entry("G5", "When rounding, keep the precision the question asks for."),
  ];
  const vectors = entries.map((e) => hashingEmbed(e.text));

  it("finds opposite phrasings by rule scan and same-topic contradictions by the model check", async () => {
    const checked: string[] = [];
    const result = await detectConflictPairs({
      entries,
      vectors,
      ...settings,
      check: async (a, b) => {
        checked.push(`${a.label}-${b.label}`);
        return { conflict: a.label === "G3" && b.label === "G4", reason: "trust vs verify" };
      },
    });
    expect(result.pairs.map((p) => [entries[p.a]!.label, entries[p.b]!.label, p.source])).toEqual([
      ["G1", "G2", "rule"],
      ["G3", "G4", "model"],
    ]);
    expect(result.pairs[0]!.reason).toMatch(
      /^opposite instructions on "includ endpoint" \(rule scan, similarity 0\.\d\d\)$/,
    );
    expect(result.pairs[1]!.reason).toMatch(/^trust vs verify \(model check, similarity/);
    // The rule-scan pair is not sent to the model again.
    expect(checked).not.toContain("G1-G2");
    expect(checked).toContain("G3-G4");
  });

  it("without a model reports rule-scan conflicts only and counts the rest as unchecked", async () => {
    const result = await detectConflictPairs({ entries, vectors, ...settings });
    expect(result.pairs.map((p) => p.source)).toEqual(["rule"]);
    expect(result.modelChecks).toBe(0);
    expect(result.unchecked).toBeGreaterThan(0);
  });

  it("examines only pairs touching focused entries, skips pairs already in one group, and respects the budget", async () => {
    const grouped = entries.map((e, index) => (index < 2 ? { ...e, conflictGroup: "cg-1" } : e));
    let calls = 0;
    const result = await detectConflictPairs({
      entries: grouped,
      vectors,
      ...settings,
      maxModelChecks: 1,
      focus: (index) => index === 3,
      check: async () => {
        calls++;
        return { conflict: true, reason: "x" };
      },
    });
    expect(calls).toBe(1);
    expect(result.pairs.every((p) => p.a === 3 || p.b === 3)).toBe(true);
  });
});

describe("planConflictResolution", () => {
  const stats = (shown: number, meanDelta: number) => ({
    shown,
    success: shown / 2,
    sumDelta: shown * meanDelta,
    lastUsedVersion: 1,
  });

  it("archives the clearly worse side when both have evidence, else groups them", () => {
    const entries = [
      entry("G1", "a", { stats: stats(10, 0.3) }),
      entry("G2", "b", { stats: stats(10, -0.1) }),
      entry("G3", "c", { stats: stats(10, 0.05) }),
      entry("G4", "d", { stats: stats(1, 0.9) }),
    ];
    const plan = planConflictResolution({
      entries,
      pairs: [
        { a: 0, b: 1, similarity: 0.9, source: "rule", reason: "opposite" },
        { a: 2, b: 3, similarity: 0.8, source: "model", reason: "contradict" },
      ],
      minEvidence: 4,
      margin: 0.15,
    });
    expect(plan.archive).toEqual([
      {
        index: 1,
        reason:
          "conflicts with G1, which does better (mean delta 0.300 over 10 vs mean delta -0.100 over 10): opposite",
      },
    ]);
    expect(plan.groups).toEqual([{ name: expect.stringMatching(/^cg-[0-9a-z]+$/), members: [2, 3] }]);
    expect([...plan.assignments.keys()]).toEqual([2, 3]);
    expect(plan.assignments.get(2)!.reason).toBe("may contradict G4: contradict");
  });

  it("on contrasts, archives the worse side only when the intervals are clearly apart", () => {
    const contrast = (n: number, mean: number) => ({
      shown: n * 3,
      success: n,
      sumDelta: 0,
      lastUsedVersion: 1,
      contrast: { n, sum: n * mean, sumSquares: n * (mean * mean + 0.04) },
    });
    const resolve = (a: ReturnType<typeof contrast>, b: ReturnType<typeof contrast>) =>
      planConflictResolution({
        entries: [entry("G1", "a", { stats: a }), entry("G2", "b", { stats: b })],
        pairs: [{ a: 0, b: 1, similarity: 0.9, source: "rule", reason: "opposite" }],
        minEvidence: 4,
        minContrasts: 4,
        margin: 0.1,
      });
    const clear = resolve(contrast(40, 0.3), contrast(40, -0.2));
    expect(clear.archive.map((item) => item.index)).toEqual([1]);
    expect(clear.archive[0]!.reason).toMatch(/^conflicts with G1, which does better \(contrast \+0\.300 \[/);
    // The same gap on three groups each: not enough contrasts, so they are grouped instead.
    const few = resolve(contrast(3, 0.3), contrast(3, -0.2));
    expect(few.archive).toEqual([]);
    expect(few.groups[0]!.members).toEqual([0, 1]);
    // A gap within the intervals' uncertainty does not decide either.
    expect(resolve(contrast(6, 0.1), contrast(6, -0.05)).archive).toEqual([]);
  });

  it("joins an existing group, folding a second existing group into the smallest name", () => {
    const entries = [
      entry("G1", "a", { conflictGroup: "cg-b" }),
      entry("G2", "b", { conflictGroup: "cg-b" }),
      entry("G3", "c", { conflictGroup: "cg-a" }),
      entry("N1", "d"),
    ];
    const plan = planConflictResolution({
      entries,
      pairs: [
        { a: 1, b: 3, similarity: 0.9, source: "model", reason: "x" },
        { a: 2, b: 3, similarity: 0.9, source: "model", reason: "y" },
      ],
      minEvidence: 4,
      margin: 0.15,
    });
    expect(plan.groups).toEqual([{ name: "cg-a", members: [0, 1, 2, 3] }]);
    expect([...plan.assignments].map(([index, value]) => [index, value.group])).toEqual([
      [1, "cg-a"],
      [3, "cg-a"],
      [0, "cg-a"],
    ]);
  });
});

describe("applyConflictPlan over a projected library", () => {
  it("puts the group on the add, on an existing entry, and rewrites a merge so its result can join", () => {
    const library = [
      makeExperience({
        id: "G1",
        text: "When counting, always include endpoints.",
        stats: { shown: 9, success: 5, sumDelta: 1, lastUsedVersion: 3 },
      }),
      makeExperience({ id: "G2", text: "When searching, verify with an official source." }),
      makeExperience({ id: "G3", text: "When searching, confirm with an official page." }),
      makeExperience({ id: "G4", text: "When searching forums, trust upvoted answers." }),
    ];
    const operations = [
      {
        op: "add" as const,
        text: "When counting, exclude endpoints.",
        status: "candidate" as const,
        reason: "new",
      },
      {
        op: "merge" as const,
        ids: ["G2", "G3"],
        text: "When searching, verify with an official source.",
        reason: "dup",
      },
    ];
    const projected = projectLibrary(library, operations);
    expect(projected.map((p) => [p.label, p.created])).toEqual([
      ["G1", false],
      ["G4", false],
      ["N1", true],
      ["N2", true],
    ]);
    const merged = projected.find((p) => p.label === "N2")!;
    expect(merged.stats.shown).toBe(0);
    const plan = planConflictResolution({
      entries: projected,
      pairs: [
        { a: 0, b: 2, similarity: 0.8, source: "rule", reason: "opposite" },
        { a: 1, b: 3, similarity: 0.7, source: "model", reason: "trust vs verify" },
      ],
      minEvidence: 4,
      margin: 0.15,
    });
    const applied = applyConflictPlan(operations, projected, plan, new Map(library.map((e) => [e.id, e])));
    const group1 = plan.assignments.get(0)!.group;
    const group2 = plan.assignments.get(1)!.group;
    expect(applied.operations).toEqual([
      {
        op: "add",
        text: "When counting, exclude endpoints.",
        status: "candidate",
        reason: "new",
        conflictGroup: group1,
      },
      {
        op: "modify",
        id: "G2",
        text: "When searching, verify with an official source.",
        conflictGroup: group2,
        reason: "dup; may contradict G4: trust vs verify",
      },
      { op: "delete", id: "G3", reason: "merged into G2: dup" },
      { op: "modify", id: "G1", conflictGroup: group1, reason: "may contradict N1: opposite" },
      { op: "modify", id: "G4", conflictGroup: group2, reason: "may contradict N2: trust vs verify" },
    ]);
  });
});
