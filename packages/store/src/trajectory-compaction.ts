import type { Trajectory } from "@tfgrpo/protocol";

/** Which of a run's trajectories to compact: those of steps `fromStep` (default 0) through `throughStep`. */
export interface CompactRunTrajectoriesOptions {
  fromStep?: number;
  throughStep: number;
}

/**
 * Compaction of a learning run's old trajectories (`learn --keep-trajectories-steps N`): the bulky text (messages,
 * tool inputs and outputs, the environment's diff and final state) goes; what the run's numbers, its resume and its report read stays (ids, attempt, epoch,
 * step, reward and its grade, final answer, usage, latency, stop reason, entries shown, withheld and cited, and each
 * tool call's name and duration). Compacting a compacted trajectory changes nothing, so it is safe to repeat.
 */
export interface TrajectoryCompaction {
  /** Compacts the run's trajectories of those steps; returns how many changed. */
  compactRunTrajectories(runId: string, options: CompactRunTrajectoriesOptions): Promise<number>;
}

/** Longest error text kept on a compacted trajectory. */
const keptErrorChars = 500;

/** The compacted form of a trajectory (a valid trajectory: the same schema, shorter fields). */
export function compactedTrajectory(trajectory: Trajectory): Trajectory {
  // The environment record (state diff, final state) is bulky text like the messages: it goes too.
  const { messages: _messages, toolCalls, error, environment: _environment, ...kept } = trajectory;
  return {
    ...kept,
    messages: [],
    toolCalls: toolCalls.map(({ input: _input, output: _output, ...call }) => ({
      ...call,
      input: null,
      output: "",
      truncated: true,
    })),
    ...(error === undefined ? {} : { error: error.slice(0, keptErrorChars) }),
  };
}

/** The stored text of a trajectory's compacted form, or null when compacting it changes nothing. */
export function compactedRecord(record: string, trajectory: Trajectory): string | null {
  const compacted = JSON.stringify(compactedTrajectory(trajectory));
  return compacted === record ? null : compacted;
}
