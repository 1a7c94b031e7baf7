import {
  isInfrastructureFailure,
  isSandboxUnavailable,
  TfgrpoError,
  type Trajectory,
} from "@tfgrpo/protocol";

/** Rollouts split by `isInfrastructureFailure`: only the task-level ones say anything about the task. */
export function splitRollouts(trajectories: readonly Trajectory[]): {
  taskLevel: Trajectory[];
  infrastructureFailures: Trajectory[];
} {
  const taskLevel: Trajectory[] = [];
  const infrastructureFailures: Trajectory[] = [];
  for (const t of trajectories) (isInfrastructureFailure(t) ? infrastructureFailures : taskLevel).push(t);
  return { taskLevel, infrastructureFailures };
}

/** What the circuit breaker watches: one phase of rollouts (a step's training rollouts, a validation). */
export interface CircuitBreaker {
  /** Stop when the share of infrastructure failures is above this (0..1). */
  maxRate: number;
  /** The phase, as a message names it: "step 3 rollouts", "step 3 validation". */
  phase: string;
  /** How to continue once the provider is back, e.g. "tfgrpo learn --resume RUN". */
  resume: string;
}

/** The marker of the circuit breaker's error (a TfgrpoError whose details carry it). */
export const circuitBreakerMarker = "circuitBreaker";

export function isCircuitBreakerStop(error: unknown): error is TfgrpoError {
  return TfgrpoError.isInstance(error) && error.details?.[circuitBreakerMarker] === true;
}

const culprit: Record<string, string> = {
  model_error: "model endpoint",
  timeout: "model endpoint (no reply in time)",
  budget: "spending limit",
  error: "workers",
  environment_error: "tool environment (MCP server)",
};

/**
 * Throws the circuit breaker's error when more than `maxRate` of a phase's rollouts are infrastructure failures: one
 * line naming the role, what failed, how many, the last errors, and how to resume. What the phase stored is kept;
 * a resumed phase redoes only its failed rollouts.
 */
export function checkCircuitBreaker(trajectories: readonly Trajectory[], breaker: CircuitBreaker): void {
  if (trajectories.length === 0) return;
  const { infrastructureFailures: failed } = splitRollouts(trajectories);
  if (failed.length === 0 || failed.length / trajectories.length <= breaker.maxRate) return;
  const reasons = new Map<string, number>();
  for (const t of failed) {
    const reason = t.toolCalls.some(isSandboxUnavailable)
      ? "tool sandbox"
      : (culprit[t.stopReason] ?? t.stopReason);
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  const what = [...reasons.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  const models = [...new Set(failed.map((t) => t.model).filter((m): m is string => Boolean(m)))];
  const lastErrors = [
    ...new Set(
      failed
        .map((t) => t.error ?? t.toolCalls.find((call) => call.error)?.error)
        .filter((e): e is string => Boolean(e)),
    ),
  ].slice(-3);
  const last = lastErrors.length > 0 ? ` (last: ${lastErrors.map(oneLine).join("; ")})` : "";
  throw new TfgrpoError(
    what === "spending limit"
      ? "budget_exceeded"
      : what === "tool sandbox"
        ? "sandbox_unavailable"
        : "model_error",
    `the actor's ${what}${models.length > 0 ? ` (${models.join(", ")})` : ""} failed ${failed.length} of ${trajectories.length} rollouts of ${breaker.phase}${last}: stopping; resume with ${breaker.resume} once it is back`,
    {
      details: {
        [circuitBreakerMarker]: true,
        role: "actor",
        phase: breaker.phase,
        failed: failed.length,
        rollouts: trajectories.length,
        lastErrors,
      },
    },
  );
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}
