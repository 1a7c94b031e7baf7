import type { Experience, ExperienceStats } from "@tfgrpo/protocol";
import { makeExperience } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { assertTransition, canTransition, lifecycleTransitions } from "./lifecycle-transitions.js";
import { type LifecyclePolicy, planLifecycle } from "./plan-lifecycle.js";

const policy: LifecyclePolicy = {
  minEvidence: 4,
  promoteMargin: 0,
  harmMargin: 0.1,
  staleAfterVersions: 20,
  probationVersions: 10,
};
const budget = { maxEntries: 50, maxTokens: 1500 };
const utility = { kind: "ucb" as const, c: 1.2 };

const stats = (
  shown: number,
  meanDelta: number,
  lastUsedVersion: number | null = 30,
  rate = 0.5,
): ExperienceStats => ({
  shown,
  success: shown * rate,
  sumDelta: shown * meanDelta,
  lastUsedVersion: shown === 0 ? null : lastUsedVersion,
});

function plan(experiences: Experience[], version = 30, overrides: { budget?: typeof budget } = {}) {
  return planLifecycle({ experiences, version, policy, budget: overrides.budget ?? budget, utility });
}

describe("lifecycle transitions table", () => {
  it("allows exactly the documented moves", () => {
    expect(lifecycleTransitions).toEqual({
      candidate: ["active", "archived"],
      active: ["probation", "archived"],
      probation: ["active", "archived"],
      archived: ["candidate"],
    });
    expect(canTransition("probation", "active")).toBe(true);
    expect(canTransition("candidate", "probation")).toBe(false);
    expect(() => assertTransition("G4", "archived", "active")).toThrow(
      "experience G4: lifecycle transition archived -> active is not allowed (from archived: candidate)",
    );
  });
});

describe("planLifecycle", () => {
  it("promotes a candidate that proved itself: candidate -> active", () => {
    const [transition, ...rest] = plan([
      makeExperience({ id: "G1", status: "candidate", stats: stats(5, 0.2) }),
    ]);
    expect(rest).toEqual([]);
    expect(transition).toMatchObject({ id: "G1", from: "candidate", to: "active" });
    expect(transition!.reason).toMatch(
      /^promoted: proven: mean delta \+0\.200 over 5 rollouts; utility .* ranks 1/,
    );
  });

  it("leaves a candidate without enough evidence alone", () => {
    expect(plan([makeExperience({ id: "G1", status: "candidate", stats: stats(3, 0.5) })])).toEqual([]);
  });

  it("archives a candidate that did worse than its groups: candidate -> archived", () => {
    const [transition] = plan([makeExperience({ id: "G2", status: "candidate", stats: stats(6, -0.25) })]);
    expect(transition).toMatchObject({ from: "candidate", to: "archived" });
    expect(transition!.reason).toBe(
      "candidate did worse than its groups: mean delta -0.250 over 6 rollouts (limit -0.1)",
    );
  });

  it("archives a candidate never selected for the stale window: candidate -> archived", () => {
    const entry = makeExperience({
      id: "G3",
      status: "candidate",
      stats: stats(0, 0),
      provenance: { runId: null, version: 5, fromOps: [] },
    });
    const [transition] = plan([entry], 25);
    expect(transition).toMatchObject({ from: "candidate", to: "archived", evidence: { idleVersions: 20 } });
    expect(transition!.reason).toBe("candidate never proved itself: never shown in 20 versions since v5");
  });

  it("puts an active entry doing worse than baseline on probation: active -> probation", () => {
    const [transition] = plan([makeExperience({ id: "G4", stats: stats(10, -0.3) })]);
    expect(transition).toMatchObject({ from: "active", to: "probation" });
    expect(transition!.reason).toContain("does worse than baseline: mean delta -0.300 over 10 rollouts");
  });

  it("puts an active entry no longer selected on probation: active -> probation", () => {
    const [transition] = plan([makeExperience({ id: "G5", stats: stats(8, 0.1, 4) })], 30);
    expect(transition).toMatchObject({ from: "active", to: "probation" });
    expect(transition!.reason).toBe("no longer selected: not shown for 26 versions (last v4)");
  });

  it("keeps the active set within the entry budget, overflow to probation by utility: active -> probation", () => {
    const entries = [
      makeExperience({ id: "G1", stats: stats(10, 0.3, 30, 0.9) }),
      makeExperience({ id: "G2", stats: stats(10, 0.0, 30, 0.2) }),
      makeExperience({ id: "G3", stats: stats(10, 0.1, 30, 0.6) }),
    ];
    const transitions = plan(entries, 30, { budget: { maxEntries: 2, maxTokens: 1500 } });
    expect(transitions).toHaveLength(1);
    expect(transitions[0]).toMatchObject({ id: "G2", from: "active", to: "probation" });
    expect(transitions[0]!.reason).toMatch(
      /^over the active budget \(2 entries, 1500 tokens\): utility .* ranks 3$/,
    );
  });

  it("keeps the active set within the token budget, skipping a long entry for shorter ones", () => {
    const long = "When a long entry applies, ".repeat(12);
    const entries = [
      makeExperience({ id: "G1", text: "When short, check.", stats: stats(10, 0.3, 30, 0.9) }),
      makeExperience({ id: "G2", text: long, stats: stats(10, 0.2, 30, 0.8) }),
      makeExperience({ id: "G3", text: "When short too, verify.", stats: stats(10, 0.1, 30, 0.6) }),
    ];
    const transitions = plan(entries, 30, { budget: { maxEntries: 10, maxTokens: 40 } });
    expect(transitions.map((t) => [t.id, t.to])).toEqual([["G2", "probation"]]);
  });

  it("does not promote a proven candidate beyond the budget (it stays a candidate)", () => {
    const entries = [
      makeExperience({ id: "G1", stats: stats(10, 0.3, 30, 0.9) }),
      makeExperience({ id: "G2", status: "candidate", stats: stats(5, 0.01, 30, 0.1) }),
    ];
    expect(plan(entries, 30, { budget: { maxEntries: 1, maxTokens: 1500 } })).toEqual([]);
  });

  it("brings a recovered entry back from probation: probation -> active", () => {
    const entry = makeExperience({
      id: "G6",
      status: "probation",
      stats: stats(12, 0.05),
      history: [
        { at: "t", version: 0, from: null, to: "active", reason: "fixture" },
        { at: "t", version: 25, from: "active", to: "probation", reason: "over budget" },
      ],
    });
    const [transition] = plan([entry]);
    expect(transition).toMatchObject({ from: "probation", to: "active" });
    expect(transition!.reason).toMatch(
      /^back from probation: recovered: mean delta \+0\.050 over 12 rollouts/,
    );
  });

  it("archives an entry still worse than baseline after the probation window: probation -> archived", () => {
    const history = [
      { at: "t", version: 0, from: null, to: "active" as const, reason: "fixture" },
      { at: "t", version: 15, from: "active" as const, to: "probation" as const, reason: "worse" },
    ];
    const entry = makeExperience({ id: "G7", status: "probation", stats: stats(9, -0.2), history });
    const [transition] = plan([entry], 30);
    expect(transition).toMatchObject({ from: "probation", to: "archived" });
    expect(transition!.reason).toBe(
      "still worse than baseline after 15 versions on probation: mean delta -0.200 over 9 rollouts",
    );
    // Within the window it stays on probation.
    expect(plan([entry], 20)).toEqual([]);
  });

  it("archives an entry not selected during its probation: probation -> archived", () => {
    const history = [
      { at: "t", version: 2, from: "active" as const, to: "probation" as const, reason: "stale" },
    ];
    const entry = makeExperience({ id: "G8", status: "probation", stats: stats(6, 0.05, 3), history });
    const [transition] = plan([entry], 30);
    expect(transition).toMatchObject({ from: "probation", to: "archived" });
    expect(transition!.reason).toContain("not selected during 28 versions on probation");
  });

  it("never touches archived entries and returns transitions sorted by id", () => {
    const entries = [
      makeExperience({ id: "G10", status: "candidate", stats: stats(6, -0.5) }),
      makeExperience({ id: "G9", status: "archived", stats: stats(50, -0.9) }),
      makeExperience({ id: "G2", stats: stats(6, -0.5) }),
    ];
    expect(plan(entries).map((t) => `${t.id}:${t.from}->${t.to}`)).toEqual([
      "G2:active->probation",
      "G10:candidate->archived",
    ]);
  });
});
