import type { Trajectory } from "../schemas/trajectory.js";

/**
 * The prefix a tool error carries when the tool's sandbox could not run at all (the actor writes it): the tool never
 * saw the model's input, so the failure says nothing about the task.
 */
export const sandboxUnavailablePrefix = "sandbox_unavailable:";

/** The prefix of a tool error whose MCP server (the attempt's environment) crashed or hung (the actor writes it). */
export const environmentUnavailablePrefix = "environment_unavailable:";

/** What the rule reads of a rollout. */
export type RolloutOutcome = Pick<Trajectory, "stopReason" | "messages" | "toolCalls">;

/**
 * The one rule for "this rollout failed because of the infrastructure, not the task": it says nothing about the
 * task or the lessons it was shown, so it gets no reward and is left out of group statistics, credit, lifecycle,
 * advantages and validation scores (counted apart instead).
 *
 * - `model_error` (the model endpoint failed), `error` (the worker or the run failed it), `budget` (a spending limit
 *   cut it off): always.
 * - `timeout`: when the model never answered (no assistant message): the provider did not reply in time. A rollout
 *   that made progress and ran out of time is the task's outcome (too slow).
 * - `environment_error`: the attempt's environment (a stateful MCP server) crashed, hung or failed its reset.
 * - any tool call that failed because the tool's sandbox is unavailable.
 */
export function isInfrastructureFailure(rollout: RolloutOutcome): boolean {
  switch (rollout.stopReason) {
    case "model_error":
    case "error":
    case "budget":
    case "environment_error":
      return true;
    case "timeout":
      if (!rollout.messages.some((message) => message.role === "assistant")) return true;
      break;
    default:
      break;
  }
  return rollout.toolCalls.some(
    (call) =>
      call.error?.startsWith(sandboxUnavailablePrefix) === true ||
      call.error?.startsWith(environmentUnavailablePrefix) === true,
  );
}
