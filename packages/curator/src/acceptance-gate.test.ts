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

describe("decideGate (paired test, one look at a fixed sample)", () => {
  const tested = config({
    margin: 0,
    test: { kind: "paired-t", alpha: 0.05, harm: 0.1 },
  });
  const repeat = (values: number[], times: number) => Array.from({ length: times }, () => values).flat();

  it("commits a clearly better candidate and stores the test's numbers", () => {
    // 30 tasks, 2 samples each: the candidate wins 12 tasks by half a point and loses 2.
    const head = repeat([0, 0.5, 1, 0.5, 0], 6);
    const candidate = head.map((score, index) =>
      index < 12 ? Math.min(1, score + 0.5) : index < 14 ? Math.max(0, score - 0.5) : score,
    );
    const decision = decideGate({
      candidateScores: candidate,
      headScores: head,
      stage: "full",
      config: tested,
      samplesPerTask: 2,
    });
    expect(decision.decision).toBe("commit");
    const test = decision.details?.test as Record<string, number>;
    expect(test).toMatchObject({ kind: "paired-t", alpha: 0.05, harm: 0.1, tasks: 30, samplesPerTask: 2 });
    expect(test.estimate).toBeCloseTo((decision.candidateScore ?? 0) - (decision.headScore ?? 0), 12);
    expect(test.lower).toBeGreaterThan(-0.1);
    expect(test.pValue).toBeLessThan(0.05);
    expect(decision.details?.samplesPerTask).toBe(2);
    expect(decision.reason).toContain("(2 samples each)");
    expect(decision.reason).toContain("ruled out");
  });

  it("rejects a clearly worse candidate", () => {
    const head = repeat([1, 0.5, 1, 0.5, 0], 6);
    const candidate = head.map((score, index) => (index % 3 === 0 ? Math.max(0, score - 0.5) : score));
    const decision = decideGate({
      candidateScores: candidate,
      headScores: head,
      stage: "full",
      config: tested,
    });
    expect(decision.decision).toBe("reject");
    expect((decision.details!.test as { upper: number }).upper).toBeLessThan(0);
  });

  it("keeps the head on a tie (no evidence of improvement), even with a tight interval", () => {
    const head = repeat([1, 0.5, 0, 0.5], 8);
    const decision = decideGate({ candidateScores: head, headScores: head, stage: "full", config: tested });
    expect(decision.decision).toBe("reject");
    expect(decision.reason).toContain("a tie keeps the head");
    // The same tie commits under the paper's rule (no test), as before.
    expect(
      decideGate({ candidateScores: head, headScores: head, stage: "full", config: config({ margin: 0 }) })
        .decision,
    ).toBe("commit");
  });

  it("rejects a small gain whose interval does not rule out the stated loss", () => {
    // 8 tasks: +1, +1, -1, +1, -1, 0, 0, 0 -> gain 0.125, but the spread leaves a loss of 0.1 possible.
    const head = [0, 0, 1, 0, 1, 0.5, 0.5, 0.5];
    const candidate = [1, 1, 0, 1, 0, 0.5, 0.5, 0.5];
    const decision = decideGate({
      candidateScores: candidate,
      headScores: head,
      stage: "full",
      config: tested,
    });
    expect(decision.decision).toBe("reject");
    expect(decision.reason).toContain("is not ruled out");
    expect((decision.details!.test as { lower: number }).lower).toBeLessThan(-0.1);
  });

  it("in not-worse mode commits a tie within the tolerance when the loss is ruled out", () => {
    const head = repeat([1, 0.5, 0, 0.5], 8);
    const candidate = head.map((score, index) => (index === 0 ? 0.5 : score));
    const decision = decideGate({
      candidateScores: candidate,
      headScores: head,
      stage: "full",
      config: { ...tested, mode: "not-worse-within-tolerance", tolerance: 0.05 },
    });
    expect(decision.decision).toBe("commit");
  });
});
