import { seededRandom } from "@tfgrpo/protocol";
import { versionPairWorld } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { decideGate, type GateConfig } from "./acceptance-gate.js";
import { resolveCuratorConfig } from "./curator-config.js";
import { sequentialLook, type ValidationRound } from "./sequential-gate.js";
import { sequentialValidationRounds } from "./validation-budget.js";

const settings = { alpha: 0.05, beta: 0.2, harm: 0.1, gain: 0.1 };
const gate: GateConfig = resolveCuratorConfig().gate;
const round = (candidate: number[], head: number[]): ValidationRound => ({ candidate, head });
const look = (rounds: ValidationRound[], maxRounds = 10, config = gate) =>
  decideGate({
    candidateScores: rounds.at(-1)!.candidate,
    headScores: rounds.at(-1)!.head,
    stage: "full",
    config,
    rounds,
    maxRounds,
  });

describe("sequentialLook", () => {
  it("bets the prior's stake in the first round: both e-values as computed by hand", () => {
    // Prior: mean 0, variance 0.25, so both bets are 0.1 / 0.26.
    const measured = sequentialLook([round([1, 0, 0.5], [0, 1, 0.5])], settings);
    expect(measured.commitEvidence).toBeCloseTo(0.96626, 4);
    expect(measured.rejectEvidence).toBeCloseTo(0.96626, 4);
    expect(measured).toMatchObject({ estimate: 0, observations: 3, rounds: 1 });
  });

  it("grows the commit evidence on wins and the reject evidence on losses", () => {
    const wins = Array.from({ length: 4 }, () => round([1, 1, 1, 0], [0, 0, 1, 0]));
    const losses = Array.from({ length: 4 }, () => round([0, 0, 1, 0], [1, 1, 1, 0]));
    expect(sequentialLook(wins, settings).commitEvidence).toBeGreaterThan(20);
    // Once the estimate is past the other test's boundary, that test stops betting: its evidence stays below 1.
    expect(sequentialLook(wins, settings).rejectEvidence).toBeLessThan(1);
    expect(sequentialLook(losses, settings).rejectEvidence).toBeGreaterThan(5);
    expect(sequentialLook(losses, settings).commitEvidence).toBeLessThan(1);
  });
});

describe("decideGate (sequential, the default)", () => {
  it("is the default of the curator's settings", () => {
    expect(gate).toMatchObject({
      mode: "better-by-margin",
      margin: 0,
      test: { kind: "sequential", alpha: 0.05, harm: 0.1, beta: 0.2, gain: 0.1 },
    });
  });

  it("asks for another round while nothing is settled, then commits a clear winner", () => {
    const win = round([1, 1, 0, 1, 1, 1], [0, 1, 0, 0, 1, 0]);
    const open = look([win]);
    expect(open).toMatchObject({ decision: "inconclusive", details: { final: false } });
    expect(open.reason).toContain("not settled yet");
    const settled = look([win, win, win]);
    expect(settled.decision).toBe("commit");
    expect(settled.details).toMatchObject({
      final: true,
      test: { kind: "sequential", rounds: 3, observations: 18, settled: true, commitThreshold: 20 },
    });
    expect(settled.reason).toContain("ruled out at alpha 0.05, sequentially");
  });

  it("rejects a clear loser as soon as a gain is ruled out", () => {
    const loss = round([0, 0, 1, 0, 0, 1], [1, 1, 1, 0, 1, 1]);
    const decision = look([loss, loss]);
    expect(decision).toMatchObject({ decision: "reject", details: { final: true } });
    expect(decision.reason).toContain("a gain of 0.1000 ruled out at beta 0.2");
  });

  it("keeps the head on a tie, and when the budget runs out unsettled", () => {
    const tie = round([1, 0, 1, 0], [1, 0, 1, 0]);
    const ties = look(Array.from({ length: 10 }, () => tie));
    expect(ties.decision).toBe("reject");
    const noisy = round([1, 0, 1, 0], [0, 1, 1, 0]);
    const capped = look([noisy, noisy], 2);
    expect(capped).toMatchObject({ decision: "reject", details: { final: true, test: { settled: false } } });
    expect(capped.reason).toContain("not settled within the validation budget");
  });

  it("takes bare scores as one round decided at once", () => {
    const decision = decideGate({ candidateScores: [1, 0], headScores: [0, 0], stage: "full", config: gate });
    expect(decision).toMatchObject({ decision: "reject", details: { final: true, test: { maxRounds: 1 } } });
  });

  it("with a fixed-sample test configured, waits for its samples per task before deciding on the means", () => {
    const paired = { ...gate, test: { ...gate.test, kind: "paired-t" as const } };
    const win = round([1, 1, 1, 1, 0], [0, 0, 0, 1, 0]);
    const early = decideGate({
      candidateScores: win.candidate,
      headScores: win.head,
      stage: "full",
      config: paired,
      rounds: [win],
      fixedSamplesPerTask: 2,
    });
    expect(early).toMatchObject({ decision: "inconclusive", details: { final: false } });
    expect(early.reason).toContain("decides at 2 samples per task: 1 so far");
    const decided = decideGate({
      candidateScores: win.candidate,
      headScores: win.head,
      stage: "full",
      config: paired,
      rounds: [win, win],
      fixedSamplesPerTask: 2,
    });
    expect(decided.details).toMatchObject({ final: true, test: { kind: "paired-t" } });
  });

  it("refuses unpaired or out-of-range rounds, naming the field", () => {
    const decide = (rounds: ValidationRound[]) =>
      decideGate({ candidateScores: [1, 0], headScores: [1, 0], stage: "full", config: gate, rounds });
    expect(() => decide([round([1, 0], [1])])).toThrow(/rounds\[0\] has 2 candidate and 1 head/);
    expect(() => decide([round([1, 0], [1, 0]), round([1, 2], [1, 0])])).toThrow(
      /rounds\[1\]\.candidate\[1\] = 2/,
    );
  });
});

describe("sequential gate error rates (seeded Monte Carlo over decideGate, few trials)", () => {
  // The bench (bench/gate-error-rates.bench.ts) runs thousands of trials; these few would still catch a rule that
  // peeks without paying for it (a fixed-sample test at every round) or never stops early.
  const tasks = 30;
  const maxRounds = sequentialValidationRounds(tasks);
  function run(difference: number, seed: number, trials: number) {
    const random = seededRandom(seed);
    let commits = 0;
    let rounds = 0;
    for (let trial = 0; trial < trials; trial++) {
      const world = versionPairWorld({ random, tasks, difference });
      const taken: ValidationRound[] = [];
      for (;;) {
        const draw = (chances: number[]) => chances.map((chance) => (random() < chance ? 1 : 0));
        taken.push(round(draw(world.candidate), draw(world.head)));
        const decision = look(taken, maxRounds);
        if (decision.details?.final === false) continue;
        if (decision.decision === "commit") commits++;
        rounds += taken.length;
        break;
      }
    }
    return { commitRate: commits / trials, meanRounds: rounds / trials };
  }

  it("commits a 10-point loss at most 5% of the time and rejects a 10-point gain at most 20%", () => {
    expect(maxRounds).toBe(4);
    expect(run(-0.1, 11, 300).commitRate).toBeLessThanOrEqual(0.05);
    expect(1 - run(0.1, 12, 300).commitRate).toBeLessThanOrEqual(0.2);
  });

  it("decides large effects in the first rounds", () => {
    expect(run(0.3, 13, 100).meanRounds).toBeLessThan(1.5);
    expect(run(-0.3, 14, 100).meanRounds).toBeLessThan(1.5);
  });
});
