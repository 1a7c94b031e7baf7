import { describe, expect, it } from "vitest";
import { decideGate, type GateConfig } from "./acceptance-gate.js";

const config = (overrides: Partial<GateConfig> = {}): GateConfig => ({
  mode: "better-by-margin",
  margin: 0.05,
  tolerance: 0.02,
  precheck: { enabled: true, tasks: 4, tolerance: 0.1 },
  ...overrides,
});

describe("decideGate (full validation)", () => {
  it("commits when the candidate is better by at least the margin", () => {
    const decision = decideGate({
      candidateScores: [1, 1, 0, 1],
      headScores: [1, 0, 0, 1],
      stage: "full",
      config: config(),
    });
    expect(decision).toMatchObject({
      decision: "commit",
      candidateScore: 0.75,
      headScore: 0.5,
      margin: 0.05,
      mode: "better-by-margin",
      tasks: 4,
      stage: "full",
      details: { wins: 1, losses: 0, ties: 3, difference: 0.25, final: true },
    });
  });

  it("rejects (keeps the head) when the gain is below the margin", () => {
    const decision = decideGate({
      candidateScores: [0.6, 0.5],
      headScores: [0.58, 0.5],
      stage: "full",
      config: config(),
    });
    expect(decision.decision).toBe("reject");
    expect(decision.reason).toContain("keeping the head");
    expect(decision.details?.difference).toBeCloseTo(0.01);
  });

  it("commits exactly at the margin despite float noise", () => {
    const decision = decideGate({
      candidateScores: [0.3],
      headScores: [0.1 + 0.15],
      stage: "full",
      config: config(),
    });
    expect(decision.decision).toBe("commit");
  });

  it("with margin 0 reproduces the paper: a tie commits, any loss reverts", () => {
    const paper = config({ margin: 0 });
    expect(
      decideGate({ candidateScores: [1, 0], headScores: [0, 1], stage: "full", config: paper }).decision,
    ).toBe("commit");
    expect(
      decideGate({ candidateScores: [1, 0, 0], headScores: [1, 1, 0], stage: "full", config: paper })
        .decision,
    ).toBe("reject");
  });

  it("in not-worse mode commits a small loss within the tolerance and rejects a larger one", () => {
    const lenient = config({ mode: "not-worse-within-tolerance", tolerance: 0.05 });
    const within = decideGate({
      candidateScores: [0.48, 0.5],
      headScores: [0.5, 0.52],
      stage: "full",
      config: lenient,
    });
    expect(within).toMatchObject({ decision: "commit", margin: -0.05, mode: "not-worse-within-tolerance" });
    const beyond = decideGate({
      candidateScores: [0.3, 0.5],
      headScores: [0.5, 0.5],
      stage: "full",
      config: lenient,
    });
    expect(beyond.decision).toBe("reject");
  });

  it("in mode always commits without comparing", () => {
    const decision = decideGate({
      candidateScores: [0],
      headScores: [1],
      stage: "full",
      config: config({ mode: "always" }),
    });
    expect(decision).toMatchObject({ decision: "commit", stage: "none", mode: "always" });
  });

  it("accepts the first version when there is no head", () => {
    const decision = decideGate({
      candidateScores: [0.2, 0.4],
      headScores: [],
      stage: "full",
      config: config(),
    });
    expect(decision).toMatchObject({ decision: "commit", headScore: null, tasks: 2 });
    expect(decision.candidateScore).toBeCloseTo(0.3);
  });

  it("rejects without scores, and refuses unpaired or out-of-range scores", () => {
    expect(
      decideGate({ candidateScores: [], headScores: [], stage: "full", config: config() }).decision,
    ).toBe("reject");
    expect(() =>
      decideGate({ candidateScores: [1, 0], headScores: [1], stage: "full", config: config() }),
    ).toThrow(/same held-out tasks \(got 2 and 1 scores\)/);
    expect(() =>
      decideGate({ candidateScores: [1.5], headScores: [1], stage: "full", config: config() }),
    ).toThrow(/candidateScores\[0\] = 1.5/);
  });
});

describe("decideGate (pre-check)", () => {
  it("passes a candidate that is not clearly worse, as a non-final decision", () => {
    const decision = decideGate({
      candidateScores: [1, 0, 1, 0],
      headScores: [1, 1, 0, 0],
      stage: "precheck",
      config: config(),
    });
    expect(decision).toMatchObject({
      decision: "commit",
      stage: "precheck",
      margin: -0.1,
      details: { final: false },
    });
    expect(decision.reason).toContain("go on to full validation");
  });

  it("fails a clear loser, as a final rejection", () => {
    const decision = decideGate({
      candidateScores: [0, 0, 1, 0],
      headScores: [1, 1, 0, 0],
      stage: "precheck",
      config: config(),
    });
    expect(decision).toMatchObject({ decision: "reject", stage: "precheck", details: { final: true } });
  });

  it("passes through when the pre-check is disabled", () => {
    const decision = decideGate({
      candidateScores: [0],
      headScores: [1],
      stage: "precheck",
      config: config({ precheck: { enabled: false, tasks: 4, tolerance: 0.1 } }),
    });
    expect(decision).toMatchObject({ decision: "commit", details: { final: false } });
    expect(decision.reason).toContain("disabled");
  });
});
