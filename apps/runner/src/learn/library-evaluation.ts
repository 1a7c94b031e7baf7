/** What an evaluation runs (a library, or none) and what it gives back per task. */
export interface LibraryUnderTest {
  /** How the library is shown in tables: `none`, `math@v3`... */
  label: string;
  library: { domain: string; version: number; statsRevision?: string } | null;
}

export interface TaskEvaluation {
  taskId: string;
  rewards: number[];
  trajectoryIds: string[];
}

export interface LibraryEvaluation {
  label: string;
  library: LibraryUnderTest["library"];
  tasks: TaskEvaluation[];
}
