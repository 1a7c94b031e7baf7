import { safeParseJson } from "@tfgrpo/protocol";

export type JsonRepair = "fence" | "prose" | "trailing-commas" | "bare-keys" | "truncation";

export type RepairJsonResult =
  | { ok: true; value: unknown; repairs: JsonRepair[] }
  | { ok: false; error: string };

const maxStartsTried = 20;
const maxCutsTried = 64;

export interface RepairJsonOptions {
  /**
   * Whether a recovered value is usable (e.g. passes the zod schema). Where several repairs are possible, as with
   * truncated output, the most complete acceptable one wins: a half-written last element is dropped rather than
   * failing the whole answer.
   */
  accept?: (value: unknown) => boolean;
}

/**
 * Recovers the JSON value in a model's answer: code fences, prose around the JSON, trailing commas, unquoted keys
 * (`{operations: [...]}`, as JavaScript-minded models write), and output cut
 * off by a token limit (open strings and brackets are closed; half-written elements are dropped as needed).
 * Without `accept` the result is only well-formed JSON: the caller still validates its shape.
 */
export function repairJson(text: string, options: RepairJsonOptions = {}): RepairJsonResult {
  const accept = options.accept ?? (() => true);
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, error: "the answer is empty" };
  const direct = safeParseJson(trimmed);
  if (direct.success) return { ok: true, value: direct.value, repairs: [] };

  const candidates: Array<{ text: string; repairs: JsonRepair[] }> = [];
  const fenced = fencedBlock(trimmed);
  if (fenced !== undefined) candidates.push({ text: fenced, repairs: ["fence"] });
  candidates.push({ text: trimmed, repairs: [] });

  let firstError = direct.error;
  // Well-formed but not accepted: still the best answer to hand back, so the caller's validation names the problem.
  let firstValue: { value: unknown; repairs: JsonRepair[] } | undefined;
  for (const candidate of candidates) {
    let tried = 0;
    for (let start = nextStart(candidate.text, 0); start >= 0 && tried < maxStartsTried; tried++) {
      const repairs = [...candidate.repairs];
      const prefix = candidate.text.slice(0, start).trim();
      const segment = balancedSegment(candidate.text, start);
      const trailing = candidate.text.slice(start + segment.text.length).trim();
      if (prefix !== "" || trailing !== "") repairs.push("prose");
      const commaless = removeTrailingCommas(segment.text);
      if (commaless !== segment.text) repairs.push("trailing-commas");
      const uncommaed = quoteBareKeys(commaless);
      if (uncommaed !== commaless) repairs.push("bare-keys");
      if (segment.complete) {
        const parsed = safeParseJson(uncommaed);
        if (parsed.success && accept(parsed.value)) return { ok: true, value: parsed.value, repairs };
        if (!parsed.success) firstError = parsed.error;
        else if (firstValue === undefined) firstValue = { value: parsed.value, repairs };
      } else {
        for (const closed of closeTruncated(uncommaed)) {
          firstValue ??= { value: closed, repairs: [...repairs, "truncation"] };
          if (accept(closed)) return { ok: true, value: closed, repairs: [...repairs, "truncation"] };
        }
      }
      start = nextStart(candidate.text, start + 1);
    }
  }
  if (firstValue) return { ok: true, ...firstValue };
  return { ok: false, error: `no JSON value could be recovered (${firstError})` };
}

/** The body of the first ``` fence, or everything after an opening fence that was never closed (truncation). */
function fencedBlock(text: string): string | undefined {
  const open = /```[A-Za-z0-9_-]*[ \t]*\r?\n?/.exec(text);
  if (!open) return undefined;
  const bodyStart = open.index + open[0].length;
  const close = text.indexOf("```", bodyStart);
  return (close < 0 ? text.slice(bodyStart) : text.slice(bodyStart, close)).trim();
}

function nextStart(text: string, from: number): number {
  for (let index = from; index < text.length; index++) {
    const char = text[index];
    if (char === "{" || char === "[") return index;
  }
  return -1;
}

/** From an opening bracket to its matching close (strings respected); to the end of the text if it never closes. */
function balancedSegment(text: string, start: number): { text: string; complete: boolean } {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (escaped) escaped = false;
      else if (char === "\\") escaped = true;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") {
      depth--;
      if (depth === 0) return { text: text.slice(start, index + 1), complete: true };
    }
  }
  return { text: text.slice(start), complete: false };
}

/**
 * Copies a JSON-like text, handing every position outside string literals to `rewrite`, which either replaces the text
 * from there (what to write, and how many characters that consumed) or leaves the character as it is (null).
 */
function rewriteOutsideStrings(
  text: string,
  rewrite: (index: number) => { write: string; consumed: number } | null,
): string {
  let out = "";
  let inString = false;
  let escaped = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (inString) {
      if (escaped) escaped = false;
      else if (char === "\\") escaped = true;
      else if (char === '"') inString = false;
      out += char;
      continue;
    }
    const replaced = rewrite(index);
    if (replaced) {
      out += replaced.write;
      index += replaced.consumed - 1;
      continue;
    }
    if (char === '"') inString = true;
    out += char;
  }
  return out;
}

function removeTrailingCommas(text: string): string {
  return rewriteOutsideStrings(text, (index) =>
    text[index] === "," && /^\s*[}\]]/.test(text.slice(index + 1, index + 64))
      ? { write: "", consumed: 1 }
      : null,
  );
}

/** `{key: 1, other_key: 2}` -> `{"key": 1, "other_key": 2}`: identifiers in key position outside strings get quotes. */
function quoteBareKeys(text: string): string {
  // Whether the last significant character outside strings opens an object or separates its members.
  let keyPosition = false;
  return rewriteOutsideStrings(text, (index) => {
    const char = text[index] as string;
    if (keyPosition) {
      const bare = /^([A-Za-z_$][\w$-]*)(\s*):/.exec(text.slice(index, index + 128));
      if (bare) {
        keyPosition = false;
        return { write: `"${bare[1]}"${bare[2]}:`, consumed: bare[0].length };
      }
    }
    if (char === "{" || char === ",") keyPosition = true;
    else if (!/\s/.test(char)) keyPosition = false;
    return null;
  });
}

/**
 * Closings of a JSON text cut off mid-way, most complete first: everything kept (an open string closed), then cut
 * back to earlier element boundaries. Losing a half-written element beats losing the answer.
 */
function* closeTruncated(text: string): Generator<unknown> {
  const stack: string[] = [];
  const cuts: Array<{ at: number; stack: string }> = [];
  let inString = false;
  let escaped = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (escaped) escaped = false;
      else if (char === "\\") escaped = true;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === "{" || char === "[") {
      stack.push(char === "{" ? "}" : "]");
      cuts.push({ at: index + 1, stack: stack.join("") });
    } else if (char === "}" || char === "]") stack.pop();
    else if (char === ",") cuts.push({ at: index, stack: stack.join("") });
  }

  let whole = text;
  if (inString) {
    // A dangling escape would swallow the closing quote.
    whole = whole.replace(/\\u[0-9a-fA-F]{0,3}$/, "");
    if (escaped) whole = whole.slice(0, -1);
    whole += '"';
  }
  whole = whole.trimEnd();
  if (whole.endsWith(",")) whole = whole.slice(0, -1);
  else if (whole.endsWith(":")) whole += " null";
  const attempt = safeParseJson(whole + closers(stack.join("")));
  if (attempt.success) yield attempt.value;

  for (let index = cuts.length - 1, tried = 0; index >= 0 && tried < maxCutsTried; index--, tried++) {
    const cut = cuts[index];
    if (!cut) continue;
    const parsed = safeParseJson(text.slice(0, cut.at).trimEnd() + closers(cut.stack));
    if (parsed.success) yield parsed.value;
  }
}

function closers(stack: string): string {
  return [...stack].reverse().join("");
}
