import { safeParseJson } from "@tfgrpo/protocol";

/** One library's row of `eval --json`, as far as tests read it. */
export interface EvalJsonRow {
  meanAtK: { estimate: number };
}

/** The rows `eval --json` printed (one per `--library`, in order); throws, quoting the output, when it printed none. */
export function evalJsonRows(stdout: string): EvalJsonRow[] {
  const parsed = safeParseJson(stdout);
  if (!parsed.success) throw new Error(`eval --json printed no JSON: ${stdout.slice(0, 400)}`);
  return (parsed.value as { rows: EvalJsonRow[] }).rows;
}
