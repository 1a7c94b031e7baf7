import type { ValidationRound } from "./sequential-gate.js";

export interface GateTest {
  /**
   * sequential: validation in rounds, two anytime-valid tests by betting (sequential-gate.ts) decide as soon as the
   * evidence settles either way; paired-t: the mode's rule and a one-sided paired t test over tasks, one look at a
   * fixed sample; none: the mode's rule only (with margin 0, the paper's "keep unless worse").
   */
  kind: "sequential" | "paired-t" | "none";
  /** The test's one-sided level: the chance of committing a candidate `harm` worse than the head. */
  alpha: number;
  /** The loss the test rules out before a commit. */
  harm: number;
  /** sequential: the reject test's level, against a candidate `gain` better (default 0.2). */
  beta?: number;
  /** sequential: the gain the reject test rules out (default: `harm`). */
  gain?: number;
}

export interface GateConfig {
  mode: "better-by-margin" | "not-worse-within-tolerance" | "always";
  margin: number;
  tolerance: number;
  precheck: { enabled: boolean; tasks: number; tolerance: number };
  /** Absent: `none` (the rule on the means only), for callers that predate the test. */
  test?: GateTest;
}

export interface GateInput {
  /** Scores of the candidate version on held-out tasks, in [0, 1]. */
  candidateScores: readonly number[];
  /** Scores of the current head on the same tasks, in the same order (none when there is no head yet). */
  headScores: readonly number[];
  stage: "precheck" | "full";
  config: GateConfig;
  /** Samples behind each task's score (recorded with the decision; the scores are already their means). */
  samplesPerTask?: number;
  /**
   * Test kind sequential: the validation so far, round by round (one paired sample per task each). Absent: the
   * scores are taken as a single round, decided at once.
   */
  rounds?: readonly ValidationRound[];
  /** Test kind sequential: rounds the validation budget allows; at this many an open test rejects. */
  maxRounds?: number;
  /**
   * When the validation comes in rounds but the configured test is a fixed-sample one (paired-t, none): the samples
   * per task it decides at; fewer rounds get a non-final answer (the caller samples another round).
   */
  fixedSamplesPerTask?: number;
}
