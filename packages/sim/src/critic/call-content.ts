/**
 * What a tool call in a rendered trajectory was, read from what it carried and what came back, whatever the tool is
 * called: a call whose argument is a Python program ran code; a call with a query-like argument that got a list of
 * results back searched; a call with a URL argument that got a page back read that page. A critic model reads a
 * transcript this way; the tool's name is one more hint, never the rule.
 */

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** A JSON value, unwrapping a JSON string that holds JSON once more (frameworks sometimes encode twice). */
export function jsonValue(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text.trim());
  } catch {
    return undefined;
  }
  if (typeof value === "string" && /^\s*[[{]/.test(value)) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

function unescapeJson(text: string): string {
  return text.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, sequence: string) => {
    if (sequence.startsWith("u") && sequence.length === 5)
      return String.fromCharCode(Number.parseInt(sequence.slice(1), 16));
    return sequence === "n" ? "\n" : sequence === "t" ? "\t" : sequence;
  });
}

/** The string arguments of a call, in order; a cut or malformed JSON text is read field by field. */
export function stringArguments(argumentsText: string): [string, string][] {
  const object = record(jsonValue(argumentsText));
  if (object)
    return Object.entries(object).filter((entry): entry is [string, string] => typeof entry[1] === "string");
  return [...argumentsText.matchAll(/["'](\w+)["']\s*:\s*"((?:[^"\\]|\\.)*)"?/g)].map(
    (m) => [m[1]!, unescapeJson(m[2]!)] as [string, string],
  );
}

const nameWords = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** A string that reads as a Python program: it prints, imports, defines, loops or assigns over several lines. */
export function looksLikePython(value: string): boolean {
  if (/^\s*https?:\/\//.test(value)) return false;
  if (/\bprint\s*\(/.test(value)) return true;
  if (!value.includes("\n")) return false;
  return [
    /^\s*(?:import\s+\w+|from\s+[\w.]+\s+import\b)/m,
    /^\s*def\s+\w+\s*\(/m,
    /^\s*for\s+\w[\w, ]*\s+in\s+.+:\s*$/m,
    /^\s*(?:while|if)\s+.+:\s*$/m,
    /^\s*[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*\s*[+\-*/]?=\s*[^=\s]/m,
  ].some((pattern) => pattern.test(value));
}

/** The argument holding a program: Python-looking content, or (for a tool named as a code runner) its one text. */
export function programArgument(name: string, argumentsText: string): string | null {
  const words = nameWords(name);
  // A tool named for doing something else with a program (explaining, linting, saving it) did not run it.
  if (
    words.some((w) =>
      /^(explain|explainer|lint|linter|format|formatter|review|describe|save|write|translate)$/.test(w),
    )
  )
    return null;
  const strings = stringArguments(argumentsText);
  const program = strings.find(([, value]) => looksLikePython(value));
  if (program) return program[1];
  const runner = words.some((w) => /^(code|python|py|exec|execute|interpreter|repl|run|eval)$/.test(w));
  const named = strings.find(([key]) => /^(code|source|src|program|script|cell)$/i.test(key));
  return runner && named ? named[1] : null;
}

const isUrl = (value: string) => /^\s*https?:\/\/\S+\s*$/.test(value);

/** The URL a call was given, when one of its arguments is an address. */
export function urlArgument(argumentsText: string): string | null {
  return (
    stringArguments(argumentsText)
      .find(([, value]) => isUrl(value))?.[1]
      .trim() ?? null
  );
}

/** A query-like argument: a short single line of words, not an address and not a program. */
export function queryArgument(argumentsText: string): string | null {
  const query = stringArguments(argumentsText).find(
    ([, value]) => value.trim().length >= 2 && value.length <= 400 && !value.includes("\n") && !isUrl(value),
  );
  return query?.[1] ?? null;
}

export function namedAsSearch(name: string): boolean {
  return nameWords(name).some((w) => /^(search|lookup|google|bing)$/.test(w));
}

export interface ResultItem {
  title: string;
  url: string;
  snippet: string;
  date: string | null;
}

const pick = (item: Record<string, unknown>, fields: readonly string[]) => {
  for (const field of fields) {
    const value = item[field];
    if (typeof value === "string" && value !== "") return value;
  }
  return "";
};

/** A JSON list of results (`[{title, url, snippet}]`, `{results: [{link, content}]}`); null when the output is not one. */
export function jsonResultItems(output: string): ResultItem[] | null {
  const value = jsonValue(output);
  const object = record(value);
  const list = Array.isArray(value)
    ? value
    : object
      ? ["results", "items", "organic", "organic_results", "data", "hits", "documents"]
          .map((field) => object[field])
          .find(Array.isArray)
      : undefined;
  if (!list) return null;
  const items = list
    .map(record)
    .filter((item): item is Record<string, unknown> => item !== null)
    .map((item) => ({
      title: pick(item, ["title", "name", "headline"]),
      url: pick(item, ["url", "link", "href", "source", "uri"]),
      snippet: pick(item, ["snippet", "content", "description", "text", "body", "summary"]),
      date: pick(item, ["date", "published", "published_date", "publishedDate", "updated"]) || null,
    }))
    .filter((item) => item.url !== "");
  return items.length > 0 ? items : null;
}

/** The text of a page as a tool returned it: a JSON object's content field, HTML reduced to its text. */
export function pageText(output: string): string {
  const object = record(jsonValue(output));
  const content = object
    ? pick(object, ["content", "text", "markdown", "body", "html", "page", "result"])
    : "";
  const text = content || output;
  if (!/<\/?(html|body|p|div|article|h[1-6]|table|span)\b[^>]*>/i.test(text)) return text;
  return text
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")
    .replace(/<\/(p|div|h[1-6]|tr|li|table|article|section)>|<br\s*\/?>/gi, "\n")
    .replace(/<(th|td)[^>]*>/gi, " ")
    .replace(/<[^>]+>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

export interface RunOutput {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  /** The result says the run failed (killed, an error, success: false), whatever its exit code. */
  failedFlag: boolean;
  /** The output was a JSON object (or cut JSON) rather than plain printed text. */
  structured: boolean;
}

const stdoutFields = ["stdout", "output", "result", "out", "printed", "text", "content", "value"];
const exitFields = ["exitCode", "exit_code", "returncode", "return_code", "returnCode"];

function field(text: string, name: string): string | null {
  const m = new RegExp(`["']${name}["']\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"?`).exec(text);
  return m ? unescapeJson(m[1]!) : null;
}

/** What a program run printed, from the runner's result in the shapes runners use. */
export function runOutput(output: string): RunOutput {
  const value = jsonValue(output);
  const object = record(value);
  if (object) {
    const stdoutValue = stdoutFields.map((f) => object[f]).find((v) => v !== undefined && v !== null);
    const stderrValue = ["stderr", "error", "traceback", "exception"].map((f) => object[f]).find((v) => v);
    const exit = exitFields.map((f) => object[f]).find((v) => typeof v === "number") as number | undefined;
    return {
      stdout:
        typeof stdoutValue === "string"
          ? stdoutValue
          : stdoutValue === undefined
            ? ""
            : typeof stdoutValue === "object"
              ? JSON.stringify(stdoutValue)
              : String(stdoutValue),
      stderr: typeof stderrValue === "string" ? stderrValue : stderrValue ? JSON.stringify(stderrValue) : "",
      exitCode: exit ?? null,
      failedFlag:
        object.killed === true ||
        object.timedOut === true ||
        object.success === false ||
        (typeof object.error === "string" && object.error !== "") ||
        (stdoutValue === undefined && typeof stderrValue === "string" && stderrValue !== ""),
      structured: true,
    };
  }
  if (typeof value === "string") return { ...runOutput(value), structured: false };
  if (output.trimStart().startsWith("{")) {
    // Cut JSON: read the fields that are there.
    const exit = /["'](?:exitCode|exit_code|returncode|return_code)["']\s*:\s*(-?\d+)/.exec(output);
    return {
      stdout: stdoutFields.map((f) => field(output, f)).find((v) => v !== null) ?? "",
      stderr: field(output, "stderr") ?? "",
      exitCode: exit ? Number(exit[1]) : null,
      failedFlag: false,
      structured: true,
    };
  }
  const section =
    /^\s*(?:stdout|output)\s*:[ \t]*([\s\S]*?)(?=^\s*(?:stderr|exit code|return ?code)\s*[:=]|(?![\s\S]))/im.exec(
      output,
    );
  const exit = /^\s*(?:exit code|exit status|return ?code|returncode)\s*[:=]?\s*(-?\d+)\s*$/im.exec(output);
  return {
    stdout: section ? section[1]! : output,
    stderr: "",
    exitCode: exit ? Number(exit[1]) : null,
    failedFlag: false,
    structured: false,
  };
}
