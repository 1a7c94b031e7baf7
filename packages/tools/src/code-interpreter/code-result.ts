/** Why a cell was stopped before it finished on its own. */
export type KilledReason =
  | "timeout"
  | "memory"
  | "output_limit"
  | "cpu"
  | "processes"
  | "file_size"
  | "aborted"
  | "signal";

export type SandboxKind = "bubblewrap" | "none";

/** What one run of code produced: the model reads it as JSON text. */
export interface CodeResult {
  stdout: string;
  stderr: string;
  /** Exit status of the cell: 0 ok, 1 uncaught exception, N for `sys.exit(N)`; null when the process was killed. */
  exitCode: number | null;
  /** The signal that ended the process (e.g. "SIGKILL"), if one did. */
  signal: string | null;
  /** True when a limit or the host stopped the cell (time, memory, output, CPU, processes, file size, abort). */
  killed: boolean;
  killedReason?: KilledReason;
  durationMs: number;
  truncated: { stdout: boolean; stderr: boolean };
  sandbox: SandboxKind;
  /** Time spent starting a fresh sandbox for this call, when it had to start one. */
  startupMs?: number;
  /** True when variables from earlier cells of this session are gone (the previous cell ended the process). */
  stateLost?: boolean;
  /** One sentence for the model about what happened to the session or why the cell was stopped. */
  notice?: string;
}
