import { makespan } from "@tfgrpo/actor/testing";
import type { Trajectory } from "@tfgrpo/protocol";
import type { PhaseSample } from "./phase-timeline.js";

/** How the ideal is computed, printed with the tables. */
export const idealDefinition = [
  `ideal = sum over the step's phases of (model calls on the phase's critical path at concurrency C) x latency; tool`,
  `execution, the Bus, the store and LangGraph count as overhead. Calls per phase come from the sim server's request`,
  `stats (chat completions + embeddings), snapshotted at each phase boundary. Per phase:`,
  `  rollout, validation  each rollout is a chain of its own model calls (Trajectory.usage.calls, 2 for a math`,
  `                       rollout: code, then answer); chains are list-scheduled in dispatch order on C slots (a`,
  `                       rollout holds its slot throughout). A rollout shown a library adds 1 call (the task's`,
  `                       embedding; the library's own embedding, once per version, runs beside it); judge calls of`,
  `                       the reward and other calls: ceil(n / C)`,
  `  reward               judge calls: ceil(n / C) (math rewards are verifiers: usually 0 calls)`,
  `  advantage            one chain per learnable group: ceil(summaries per group / 8) + 1 (summaries 8 at a time,`,
  `                       then the group advantage); groups list-scheduled on C slots`,
  `  consolidate          one curator request: its calls in sequence, except conflict checks, 4 at a time`,
  `  others               ceil(calls / C)`,
  `ratio = wall time of runLearning (load data -> last checkpoint) / ideal. 1.00 would be pure model latency.`,
].join("\n");

/** Model calls of each rollout, in dispatch order; `taskEmbedding` adds the embedding of the task a library needs. */
export function chainsOf(trajectories: readonly Trajectory[], taskEmbedding = false): number[] {
  return [...trajectories]
    .sort((a, b) => a.taskId.localeCompare(b.taskId) || a.attempt - b.attempt)
    .map((t) => t.usage.calls + (taskEmbedding && withLibrary(t) ? 1 : 0));
}

const withLibrary = (t: Trajectory) => t.libraryVersion !== null && t.libraryVersion !== undefined;

export function idealOfPhase(
  phase: PhaseSample,
  concurrency: number,
  rollouts: readonly Trajectory[],
): { units: number; calls: number } {
  const k = phase.byKind;
  const calls = Object.values(k).reduce((a, b) => a + b, 0);
  const spread = (n: number) => Math.ceil(n / concurrency);
  switch (phase.name) {
    case "rollout":
    case "validation": {
      // A rollout shown a library embeds its task first; the library's entries (once per version) are embedded at
      // the same time, so they add calls but no time on the critical path.
      const embeddings = k.embeddings ?? 0;
      const shown = rollouts.filter(withLibrary).length;
      const taskEmbedding = shown > 0 && embeddings >= shown;
      const libraryEmbeddings = taskEmbedding ? embeddings - shown : 0;
      const chains = chainsOf(rollouts, taskEmbedding);
      const inChains = chains.reduce((a, b) => a + b, 0);
      const judge = k.judge ?? 0;
      const rest = Math.max(0, calls - inChains - libraryEmbeddings - judge);
      return {
        units: makespan(chains, concurrency) + spread(judge) + spread(rest),
        calls,
      };
    }
    case "advantage": {
      const groups = k["group-advantage"] ?? 0;
      const summaries = k["trajectory-summary"] ?? 0;
      if (groups === 0) return { units: spread(calls), calls };
      const perGroup = Math.ceil(summaries / groups / 8) + 1;
      const rest = Math.max(0, calls - groups - summaries);
      return { units: makespan(new Array(groups).fill(perGroup), concurrency) + spread(rest), calls };
    }
    case "consolidate": {
      const checks = k["conflict-check"] ?? 0;
      return { units: calls - checks + Math.ceil(checks / 4), calls };
    }
    default:
      return { units: spread(calls), calls };
  }
}
