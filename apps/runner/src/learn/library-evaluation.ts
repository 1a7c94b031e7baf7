/** What an evaluation runs (a library, or none) and what it gives back per task. */
export interface LibraryUnderTest {
  /** How the library is shown in tables: `none`, `math@v3`... */
  label: string;
  library: { domain: string; version: number; statsRevision?: string } | null;
}

export interface TaskEvaluation {
  taskId: string;
  /** Every sample's reward, an infrastructure failure counted as 0 (what `eval` tables show). */
  rewards: number[];
  /** The rewards of the task-level samples only (infrastructure failures left out): what validation scores use. */
  taskLevelRewards: number[];
  /**
   * Per attempt (sample index, the same seed under every library), the reward of a task-level sample; null where the
   * attempt failed on the infrastructure or is missing. What the sequential gate pairs round by round.
   */
  attemptRewards: (number | null)[];
  /** Samples that failed on the infrastructure (`isInfrastructureFailure`). */
  infrastructureFailures: number;
  trajectoryIds: string[];
}

export interface LibraryEvaluation {
  label: string;
  library: LibraryUnderTest["library"];
  tasks: TaskEvaluation[];
}
