import type { OnlineLearnerSnapshot } from "./learner-snapshot.js";
import type { OnlineConfig } from "./online-config.js";
import type { ArmOutcome } from "./sequential-canary.js";

/** A canary out: its version, the share it serves and the outcomes of both arms since it started, by stratum. */
export interface CanaryRun {
  version: number;
  parent: number | null;
  share: number;
  startCursor: number;
  startedAt: string;
  deadlineAt: string;
  outcomes: ArmOutcome[];
  /** The head's outcomes while the canary ran (the latest `headBound`). */
  headOutcomes: ArmOutcome[];
}

/** Head outcomes kept for a canary's test: far more than it ever needs at the largest canary share. */
export const headBound = (rollout: OnlineConfig["rollout"]) => rollout.canaryOutcomes * 8;

export function startCanaryRun(
  version: number,
  parent: number | null,
  cursor: number,
  now: Date,
  rollout: OnlineConfig["rollout"],
): CanaryRun {
  return {
    version,
    parent,
    // The fastest share before any outcome: an even split, within the settings' bounds.
    share: Math.min(rollout.canaryShare, Math.max(rollout.minCanaryShare, 0.5)),
    startCursor: cursor,
    startedAt: now.toISOString(),
    deadlineAt: new Date(now.getTime() + rollout.canaryDeadlineSeconds * 1000).toISOString(),
    outcomes: [],
    headOutcomes: [],
  };
}

/** Adds an outcome to the arm that served it (other versions' outcomes are not the canary's business). */
export function recordCanaryOutcome(
  run: CanaryRun,
  outcome: { version: number | null; success: boolean },
  stratum: string,
  bound: number,
): boolean {
  if (outcome.version === run.version) run.outcomes.push({ stratum, success: outcome.success });
  else if (outcome.version === run.parent) {
    run.headOutcomes.push({ stratum, success: outcome.success });
    if (run.headOutcomes.length > bound) run.headOutcomes.splice(0, run.headOutcomes.length - bound);
  } else return false;
  return true;
}

export function canarySnapshot(run: CanaryRun | null): OnlineLearnerSnapshot["canary"] {
  if (run === null) return null;
  const { outcomes, headOutcomes, ...rest } = run;
  return { ...rest, outcomes: outcomes.length, headOutcomes: headOutcomes.length };
}
