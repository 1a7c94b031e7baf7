import { existsSync } from "node:fs";
import { formatZodIssues, readUserText, safeParseJson, TfgrpoError } from "@tfgrpo/protocol";
import { type TraceLine, traceLineSchema } from "./trace-line.js";

/** A run's local trace file, every line checked: a bad line is named by file and line number. */
export async function readTraceFile(file: string): Promise<TraceLine[]> {
  if (!existsSync(file))
    throw new TfgrpoError("not_found", `${file}: no trace file (was the run traced? see --no-trace)`, {
      details: { file },
    });
  const text = await readUserText(file, { what: "trace file", code: "invalid_input" });
  const spans: TraceLine[] = [];
  const lines = text.split("\n");
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue;
    // The last line of a file still being written may be cut short: skip it rather than refuse the whole trace.
    const json = safeParseJson(line);
    if (!json.success) {
      if (index === lines.length - 1) continue;
      throw new TfgrpoError("invalid_input", `${file}:${index + 1}: not JSON (${json.error})`, {
        details: { file, line: index + 1 },
      });
    }
    const parsed = traceLineSchema.safeParse(json.value);
    if (!parsed.success)
      throw new TfgrpoError(
        "invalid_input",
        `${file}:${index + 1}: ${formatZodIssues(parsed.error.issues)}`,
        {
          details: { file, line: index + 1 },
        },
      );
    spans.push(parsed.data);
  }
  return spans;
}
