/** Where a command writes: the terminal, or anything with `write` (tests, a parent command's log). */
export interface CommandOutput {
  stderr: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  stdout: { write(text: string): unknown };
}
