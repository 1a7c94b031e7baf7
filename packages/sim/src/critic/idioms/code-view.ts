/** A program as the critic reads it: its statements, and what it printed. */
export interface CodeView {
  lines: readonly string[];
  /** The lines joined with newlines. */
  text: string;
  /** The last line the program printed, when it ran. */
  printed: string | null;
}

export function codeView(lines: readonly string[], printed: string | null = null): CodeView {
  return { lines, text: lines.join("\n"), printed };
}

/** The first line of the program that matches `pattern`. */
export function lineWith(view: CodeView, pattern: RegExp): string | null {
  return view.lines.find((line) => pattern.test(line)) ?? null;
}
