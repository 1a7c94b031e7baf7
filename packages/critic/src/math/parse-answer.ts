/**
 * The shape of a normalized answer, decided before comparing: a value, an equation, a bracketed sequence (a point,
 * a vector or an interval), a union of intervals, a set or list of solutions, the empty set, a choice letter, or text.
 */
export type AnswerValue =
  | { kind: "empty" }
  | { kind: "choice"; letter: string }
  | { kind: "text"; text: string }
  /** `equation` keeps `y = 2x + 3` when the answer was reduced to its right-hand side. */
  | { kind: "expression"; latex: string; equation?: Equation }
  | ({ kind: "equation" } & Equation)
  | SequenceValue
  | { kind: "union"; parts: SequenceValue[] }
  /** `braced`: written as `\{...\}`; otherwise a bare list such as `2, 3` or `x = 2 or x = 3`. */
  | { kind: "set"; items: AnswerValue[]; braced: boolean };

export interface Equation {
  lhs: string;
  rhs: string;
}

export interface SequenceValue {
  kind: "sequence";
  open: "(" | "[";
  close: ")" | "]";
  items: AnswerValue[];
}

const emptyWords =
  /^(?:\\emptyset|\\\{\s*\\\}|\{\s*\}|no\s+(?:real\s+)?solutions?|none|there\s+(?:is|are)\s+no\s+solutions?|no\s+such\s+\w+)$/i;
const singleVariable = /^[a-zA-Z](?:_\{?[a-zA-Z0-9]+\}?)?$/;
const functionOfVariable = /^[a-zA-Z]\s*\(\s*[a-zA-Z](?:\s*,\s*[a-zA-Z])*\s*\)$/;
const maxDepth = 6;

/** Parses a normalized answer (see normalizeAnswer) into the value it states. */
export function parseAnswer(input: string, depth = 0): AnswerValue {
  const text = stripOuterBraces(input.trim());
  if (depth > maxDepth) return { kind: "text", text };
  if (text === "") return { kind: "text", text: "" };
  if (emptyWords.test(text)) return { kind: "empty" };

  const matrix = /^\\begin\{[pbvB]?matrix\}([\s\S]*)\\end\{[pbvB]?matrix\}$/.exec(text);
  if (matrix) return parseMatrix(matrix[1]!, depth);

  // "x = ±2", "1 ± √2": two answers.
  const plusMinus = /\\(?:pm|mp)(?![a-zA-Z])/.exec(text);
  if (plusMinus && !/\\(?:pm|mp)(?![a-zA-Z])/.test(text.slice(plusMinus.index + 3))) {
    const before = text.slice(0, plusMinus.index);
    const after = text.slice(plusMinus.index + plusMinus[0].length);
    return {
      kind: "set",
      items: [parseAnswer(`${before}+${after}`, depth + 1), parseAnswer(`${before}-${after}`, depth + 1)],
      braced: false,
    };
  }

  const parts = splitTopLevel(text, /^(?:,|\s+or\s+|\s+and\s+|;)/);
  if (parts.length > 1) {
    const items = parts.map((part) => parseAnswer(part, depth + 1));
    if (items.every(isInterval)) return { kind: "union", parts: items as SequenceValue[] };
    return { kind: "set", items, braced: false };
  }

  const unionParts = splitTopLevel(text, /^\\cup(?![a-zA-Z])/);
  if (unionParts.length > 1) {
    const items = unionParts.map((part) => parseAnswer(part, depth + 1));
    if (items.every((item) => item.kind === "sequence")) {
      return { kind: "union", parts: items as SequenceValue[] };
    }
    return { kind: "text", text };
  }

  const membership = /^[a-zA-Z]\s*\\in\s*(.+)$/.exec(text);
  if (membership) return parseAnswer(membership[1]!, depth + 1);

  if (/^\\\{[\s\S]*\\\}$/.test(text) && enclosesWhole(text, 2)) {
    const inner = text.slice(2, -2).trim();
    if (inner === "") return { kind: "empty" };
    const items = splitTopLevel(inner, /^,/).map((part) => parseAnswer(part, depth + 1));
    return { kind: "set", items, braced: true };
  }

  const choice = /^\(?([A-E])\)(?:\s+.*)?$|^([A-E])$/.exec(text);
  if (choice) return { kind: "choice", letter: (choice[1] ?? choice[2])! };

  const inequality = parseInequality(text);
  if (inequality) return inequality;

  if (/^[([]/.test(text) && /[)\]]$/.test(text) && enclosesWhole(text, 1)) {
    const inner = text.slice(1, -1);
    const items = splitTopLevel(inner, /^,/);
    if (items.length > 1) {
      return {
        kind: "sequence",
        open: text[0] as "(" | "[",
        close: text[text.length - 1] as ")" | "]",
        items: items.map((item) => parseAnswer(item, depth + 1)),
      };
    }
    if ((text[0] === "(" && text.endsWith(")")) || (text[0] === "[" && text.endsWith("]"))) {
      return parseAnswer(inner, depth + 1);
    }
  }

  const sides = splitTopLevel(text, /^=/);
  if (sides.length >= 2) {
    const lhs = sides[0]!.trim();
    // "x = 40 + 2 = 42": the last side is the answer.
    const rhs = sides[sides.length - 1]!.trim();
    if (singleVariable.test(lhs) || functionOfVariable.test(lhs)) {
      const value = parseAnswer(rhs, depth + 1);
      return value.kind === "expression" ? { ...value, equation: { lhs, rhs } } : value;
    }
    if (sides.length === 2) return { kind: "equation", lhs, rhs };
    return parseAnswer(rhs, depth + 1);
  }

  if (isText(text)) return { kind: "text", text: canonicalText(text) };
  return { kind: "expression", latex: text };
}

export function isInterval(value: AnswerValue): value is SequenceValue {
  return value.kind === "sequence" && value.items.length === 2;
}

/** Lower-cased, spaces collapsed: how text answers and unparseable leftovers are compared. */
export function canonicalText(text: string): string {
  return text
    .toLowerCase()
    .replace(/\\text\s*/g, "")
    .replace(/[{}]/g, "")
    .replace(/\s+/g, " ")
    .replace(/[.!]+$/, "")
    .trim();
}

function isText(text: string): boolean {
  if (!/^[a-zA-Z][a-zA-Z\s'-]*$/.test(text)) return false;
  // "xy" is a product of two variables; "Monday", "yes", "no" are words.
  return /[a-zA-Z]{3,}/.test(text) || /^no$/i.test(text) || /\s/.test(text.trim());
}

function stripOuterBraces(text: string): string {
  let current = text;
  while (current.startsWith("{") && current.endsWith("}") && enclosesWhole(current, 1)) {
    current = current.slice(1, -1).trim();
  }
  return current;
}

/** Whether the opening bracket (of `width` characters) at 0 is closed only by the last character(s). */
function enclosesWhole(text: string, width: number): boolean {
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === "\\") {
      const escaped = text[index + 1];
      if (escaped === "{") depth++;
      else if (escaped === "}") depth--;
      index++;
    } else if ("([{".includes(char)) depth++;
    else if (")]}".includes(char)) depth--;
    if (depth === 0 && index < text.length - 1) return false;
  }
  return depth === 0 && width > 0;
}

/**
 * Splits on separators outside any bracket. Brackets of any kind count alike, so the half-open interval `[2, 5)`
 * stays whole.
 */
export function splitTopLevel(text: string, separator: RegExp): string[] {
  // Sticky, so each position is tried in place rather than on a copy of the rest of the text (quadratic).
  const sticky = new RegExp(separator.source.replace(/^\^/, ""), `${separator.flags.replace(/[gy]/g, "")}y`);
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  const trySplit = (index: number): number | null => {
    if (depth !== 0 || index <= start) return null;
    sticky.lastIndex = index;
    const match = sticky.exec(text);
    if (!match || match[0] === "") return null;
    parts.push(text.slice(start, index));
    start = index + match[0].length;
    return start - 1;
  };
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === "\\") {
      const escaped = text[index + 1];
      if (escaped === "{") depth++;
      else if (escaped === "}") depth--;
      else {
        const next = trySplit(index);
        if (next !== null) {
          index = next;
          continue;
        }
      }
      index++;
      continue;
    }
    if ("([{".includes(char)) depth++;
    else if (")]}".includes(char)) depth--;
    else {
      const next = trySplit(index);
      if (next !== null) index = next;
    }
  }
  parts.push(text.slice(start));
  const trimmed = parts.map((part) => part.trim());
  return trimmed.some((part) => part === "") ? [text] : trimmed;
}

function parseMatrix(body: string, depth: number): AnswerValue {
  const rows = body
    .split(/\\cr(?![a-zA-Z])/)
    .map((row) => row.trim())
    .filter((row) => row !== "");
  const cells = rows.map((row) => row.split("&").map((cell) => parseAnswer(cell, depth + 1)));
  const items: AnswerValue[] = cells.every((row) => row.length === 1)
    ? cells.map((row) => row[0]!)
    : cells.map((row) => ({ kind: "sequence", open: "(", close: ")", items: row }) satisfies SequenceValue);
  return { kind: "sequence", open: "(", close: ")", items };
}

type Relation = "<" | ">" | "\\le" | "\\ge";

/** `x < 3`, `x \ge 1`, `-1 \le x \le 4`, `3 > x` as an interval. */
function parseInequality(text: string): SequenceValue | null {
  const pieces = text.split(/(<|>|\\le(?![a-zA-Z])|\\ge(?![a-zA-Z]))/).map((piece) => piece.trim());
  if (pieces.length !== 3 && pieces.length !== 5) return null;
  const values = pieces.filter((_, index) => index % 2 === 0);
  const relations = pieces.filter((_, index) => index % 2 === 1) as Relation[];
  if (values.some((value) => value === "")) return null;
  const variableAt = values.findIndex((value) => singleVariable.test(value));
  if (variableAt === -1) return null;
  const bound = (latex: string): AnswerValue => parseAnswer(latex, maxDepth);
  const infinity = (sign: "" | "-"): AnswerValue => ({ kind: "expression", latex: `${sign}\\infty` });
  const strict = (relation: Relation) => relation === "<" || relation === ">";

  if (values.length === 2) {
    const [relation] = relations as [Relation];
    // Read as "x REL v" (mirror "v REL x").
    const other = values[1 - variableAt]!;
    const upper =
      variableAt === 0 ? relation === "<" || relation === "\\le" : relation === ">" || relation === "\\ge";
    return upper
      ? {
          kind: "sequence",
          open: "(",
          close: strict(relation) ? ")" : "]",
          items: [infinity("-"), bound(other)],
        }
      : {
          kind: "sequence",
          open: strict(relation) ? "(" : "[",
          close: ")",
          items: [bound(other), infinity("")],
        };
  }
  if (variableAt !== 1) return null;
  const [first, second] = relations as [Relation, Relation];
  const ascending = (first === "<" || first === "\\le") && (second === "<" || second === "\\le");
  const descending = (first === ">" || first === "\\ge") && (second === ">" || second === "\\ge");
  if (ascending) {
    return {
      kind: "sequence",
      open: strict(first) ? "(" : "[",
      close: strict(second) ? ")" : "]",
      items: [bound(values[0]!), bound(values[2]!)],
    };
  }
  if (descending) {
    return {
      kind: "sequence",
      open: strict(second) ? "(" : "[",
      close: strict(first) ? ")" : "]",
      items: [bound(values[2]!), bound(values[0]!)],
    };
  }
  return null;
}
