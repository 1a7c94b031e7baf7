import { safeParseJson } from "@tfgrpo/protocol";

/**
 * How the simulated policy reads what a tool gave back, in whatever shape the tool chose: tfgrpo's JSON
 * (`{stdout, stderr, exitCode, killed}`), a subprocess's (`{"stdout": "...", "returncode": 0}`), `{output}`,
 * `{result}`, plain printed text, a JSON string wrapped once more by a framework, LangChain's content blocks; a
 * search result as a numbered list or a JSON array of `{title, url, snippet}` / `{link, content}`; a page as text,
 * HTML or JSON with a content field.
 */

export interface ProgramOutput {
  ok: boolean;
  /** The last line the program printed. */
  value: string | null;
  /** Why the run did not give a value (shown in the policy's message). */
  reason: string;
}

const stdoutFields = ["stdout", "output", "result", "out", "printed", "text", "content", "value", "data"];
const exitFields = [
  "exitCode",
  "exit_code",
  "returncode",
  "return_code",
  "returnCode",
  "status_code",
  "exit_status",
];
const errorFields = ["error", "exception", "traceback", "err"];

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function parsed(output: string): unknown {
  const trimmed = output.trim();
  if (!/^[[{"]|^-?\d/.test(trimmed)) return undefined;
  const result = safeParseJson<unknown>(trimmed);
  return result.success ? result.value : undefined;
}

/** LangChain / MCP content blocks: `[{type: "text", text: "..."}]`. */
function contentBlocksText(value: unknown): string | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const texts = value.map((part) => {
    const block = record(part);
    return block && typeof block.text === "string" ? block.text : null;
  });
  return texts.every((t) => t !== null) ? texts.join("") : null;
}

function lastLine(text: string): string | undefined {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .at(-1);
}

function printed(stdout: string): ProgramOutput {
  const last = lastLine(stdout);
  if (last === undefined) return { ok: false, value: null, reason: "the program printed nothing" };
  return { ok: true, value: last, reason: "" };
}

function fromObject(result: Record<string, unknown>, depth: number): ProgramOutput {
  if (result.killed === true || result.timedOut === true || result.timed_out === true)
    return { ok: false, value: null, reason: "the run was killed" };
  for (const field of exitFields) {
    const code = result[field];
    if (typeof code === "number" && code !== 0)
      return { ok: false, value: null, reason: `exit code ${code}` };
  }
  if (result.success === false || result.ok === false) {
    const stderr = typeof result.stderr === "string" ? lastLine(result.stderr) : undefined;
    return { ok: false, value: null, reason: stderr ?? "the run failed" };
  }
  for (const field of errorFields) {
    const error = result[field];
    if (typeof error === "string" && error !== "")
      return { ok: false, value: null, reason: error.split("\n")[0]!.slice(0, 120) };
    if (record(error))
      return { ok: false, value: null, reason: `${field}: ${JSON.stringify(error).slice(0, 100)}` };
  }
  for (const field of stdoutFields) {
    const value = result[field];
    if (typeof value === "string") return printed(value);
    if (typeof value === "number" || typeof value === "boolean") return printed(String(value));
    if (value !== undefined && value !== null && depth < 3) return readValue(value, depth + 1);
  }
  const stderr = typeof result.stderr === "string" ? lastLine(result.stderr) : undefined;
  if (stderr !== undefined) return { ok: false, value: null, reason: stderr.slice(0, 120) };
  return { ok: false, value: null, reason: "the program printed nothing" };
}

function readValue(value: unknown, depth: number): ProgramOutput {
  if (typeof value === "string") return readPlain(value, depth + 1);
  if (typeof value === "number" || typeof value === "boolean") return printed(String(value));
  const blocks = contentBlocksText(value);
  if (blocks !== null) return readPlain(blocks, depth + 1);
  const object = record(value);
  if (object) return fromObject(object, depth);
  return printed(JSON.stringify(value));
}

/** The `stdout:` / `output:` section of a labelled plain-text result; null when the text has no such label. */
function stdoutSection(text: string): string | null {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((line) => /^\s*(?:stdout|output)\s*:/i.test(line));
  if (start < 0) return null;
  const section = [lines[start]!.replace(/^\s*(?:stdout|output)\s*:/i, "")];
  for (const line of lines.slice(start + 1)) {
    if (/^\s*(?:stderr|errors?|exit code|exit status|return ?code|returncode)\s*[:=]/i.test(line)) break;
    section.push(line);
  }
  return section.join("\n");
}

/** Plain text: a traceback is a failure; `stdout:` / `exit code:` sections are read when the text has them. */
function readPlain(text: string, depth: number): ProgramOutput {
  if (depth < 4) {
    const json = parsed(text);
    if (typeof json === "string" || contentBlocksText(json) !== null || record(json))
      return readValue(json, depth);
  }
  const exit = /^\s*(?:exit code|exit status|return ?code|returncode|exitcode)\s*[:=]?\s*(-?\d+)\s*$/im.exec(
    text,
  );
  if (exit && Number(exit[1]) !== 0) return { ok: false, value: null, reason: `exit code ${exit[1]}` };
  const section = stdoutSection(text);
  // Labelled with a clean exit: what stderr holds (warnings) does not undo what was printed.
  if (section !== null && exit) return printed(section);
  if (/Traceback|Error:|error:/.test(text))
    return { ok: false, value: null, reason: text.split("\n")[0]!.slice(0, 120) };
  return printed(section ?? text);
}

/** What a program run printed, from a code runner's result in any of the shapes above. */
export function readProgramOutput(output: string | null): ProgramOutput {
  if (output === null) return { ok: false, value: null, reason: "no tool result" };
  return readPlain(output, 0);
}

function leaves(value: unknown, out: string[], depth: number): void {
  if (typeof value === "string") {
    const inner = depth < 3 ? parsed(value) : undefined;
    if (inner !== undefined && typeof inner === "object" && inner !== null) leaves(inner, out, depth + 1);
    else out.push(value);
  } else if (typeof value === "number") out.push(String(value));
  else if (Array.isArray(value)) for (const item of value) leaves(item, out, depth);
  else {
    const object = record(value);
    if (object) for (const item of Object.values(object)) leaves(item, out, depth);
  }
}

function htmlText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")
    .replace(/<\/(p|div|h[1-6]|tr|li|dd|dt|table|dl|article|section)>|<br\s*\/?>/gi, "\n")
    .replace(/<(th|td)[^>]*>/gi, " ")
    .replace(/<a\s[^>]*href="([^"]*)"[^>]*>/gi, " $1 ")
    .replace(/<[^>]+>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

/**
 * The readable text of a search result or a page: a JSON value's strings and numbers (titles, links, snippets,
 * content), an HTML page's text and links; any other text as it is.
 */
export function readableText(output: string): string {
  const json = parsed(output);
  let text = output;
  if (json !== undefined && typeof json !== "number") {
    const out: string[] = [];
    leaves(json, out, 0);
    text = out.join("\n");
  }
  return /<\/?(html|head|body|p|div|article|section|h[1-6]|span|table|td|a|ul|li|br)\b[^>]*>/i.test(text)
    ? htmlText(text)
    : text;
}
