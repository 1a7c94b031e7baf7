import {
  argumentsAt,
  blockEnd,
  boundNames,
  codeLines,
  codeOf,
  continuationLines,
  escapeRegExp,
  identifiersIn,
  reserved,
} from "./python-text.js";

/**
 * What the simulated repair agent notes about a program before it edits (SIMULATED): its functions, loops, the
 * names it binds and where each is read, changed in place or rebound, its recursive calls. Read from the program's
 * text alone; the edit finders (`*-edits.ts`) look for defects of their kind in these facts.
 */

export interface Occurrence {
  line: number;
  at: number;
  name: string;
  /** `target`: bound here (`x = …`, `for x in …`, a parameter); `base`: the object of an element or attribute write
   * (`x[i] = …`, `x.f = …`); `use`: read. */
  role: "target" | "base" | "use";
}

export interface FunctionFact {
  name: string;
  header: number;
  end: number;
  params: string[];
}

export interface LoopFact {
  header: number;
  end: number;
  kind: "for" | "while";
  /** The loop's targets (`for i, x in …`). */
  targets: string[];
  /** The iterated expression (for) or the condition (while). */
  head: string;
}

export interface CallFact {
  line: number;
  /** The called function's name. */
  callee: string;
  /** Offset of the opening parenthesis. */
  open: number;
  args: string[];
}

export interface ProgramFacts {
  /** Every line of the file (code and docstring). */
  lines: string[];
  /** The code lines (before the docstring). */
  code: string[];
  /** The function the task names. */
  entry: string;
  functions: FunctionFact[];
  loops: LoopFact[];
  /** Variables: parameters and bound names (not the functions themselves). */
  names: string[];
  occurrences: Occurrence[];
  /** Lines continuing an earlier line's open bracket. */
  continuation: Set<number>;
  /** Calls of a function of the program from inside itself. */
  recursiveCalls: CallFact[];
  /** Every call `name(…)` of the code (builtins and methods not included). */
  calls: CallFact[];
}

const mutators =
  /\.(append|add|update|extend|insert|setdefault|appendleft|extendleft|push|remove|discard|clear)\(/;

/** The assignment's left side `[0, end)` on an assignment line, or null. */
function leftSide(code: string): number | null {
  if (/^\s*(?:if|elif|while|return|for|yield|assert|def|lambda|print|else|with)\b/.test(code)) return null;
  let depth = 0;
  for (let index = 0; index < code.length; index++) {
    const char = code[index]!;
    if ("([{".includes(char)) depth++;
    else if (")]}".includes(char)) depth--;
    else if (char === "=" && depth === 0) {
      const prev = code[index - 1] ?? "";
      const next = code[index + 1] ?? "";
      if (next === "=" || "=!<>".includes(prev)) {
        if (next === "=") index++;
        continue;
      }
      // `+=`, `//=`: the operator belongs to the assignment.
      let end = index;
      while (end > 0 && "+-*/%|&^".includes(code[end - 1]!)) end--;
      return end;
    }
  }
  return null;
}

function occurrencesOf(code: readonly string[], continuation: ReadonlySet<number>): Occurrence[] {
  const out: Occurrence[] = [];
  code.forEach((raw, line) => {
    const text = codeOf(raw);
    const left = continuation.has(line) ? null : leftSide(text);
    const loop = /^(\s*for\s+)(.+?)\s+in\b/.exec(text);
    const loopTargets = loop ? [loop[1]!.length, loop[1]!.length + loop[2]!.length] : null;
    const def = /^\s*def\s+\w+\((.*)\)/.exec(text);
    for (const { name, at } of identifiersIn(text)) {
      if (reserved.has(name)) continue;
      let role: Occurrence["role"] = "use";
      if (def) role = at > text.indexOf("(") ? "target" : "use";
      else if (loopTargets && at >= loopTargets[0]! && at < loopTargets[1]!) role = "target";
      else if (left !== null && at < left) {
        // Inside brackets of the left side (`counts[x]`): x is read; the base `counts` is written in place.
        const before = text.slice(0, at);
        const depth = (before.match(/[[(]/g) ?? []).length - (before.match(/[\])]/g) ?? []).length;
        const after = text.slice(at + name.length);
        if (depth > 0) role = "use";
        else role = /^\s*[[.]/.test(after) ? "base" : "target";
      }
      // `x.append(…)`: x changed in place.
      if (role === "use" && mutators.test(text.slice(at + name.length, at + name.length + 14))) role = "base";
      out.push({ line, at, name, role });
    }
  });
  return out;
}

function callsOf(code: readonly string[]): CallFact[] {
  const out: CallFact[] = [];
  code.forEach((raw, line) => {
    const text = codeOf(raw);
    if (/^\s*def\b/.test(text)) return;
    for (const match of text.matchAll(/(?<![.\w])([A-Za-z_]\w*)\s*\(/g)) {
      const open = match.index + match[0].length - 1;
      const args = argumentsAt(text, open);
      if (!args) continue;
      out.push({
        line,
        callee: match[1]!,
        open,
        args: args.parts.map((part) => part.trim()).filter(Boolean),
      });
    }
  });
  return out;
}

/** The facts of a program whose task names `entry`. */
export function programFacts(source: string, entry: string): ProgramFacts {
  const lines = source.split("\n");
  const code = codeLines(source);
  const continuation = continuationLines(code);
  const functions: FunctionFact[] = [];
  const loops: LoopFact[] = [];
  code.forEach((raw, header) => {
    const text = codeOf(raw);
    const def = /^\s*def\s+(\w+)\((.*)\)\s*:/.exec(text);
    if (def) functions.push({ name: def[1]!, header, end: blockEnd(code, header), params: boundNames(text) });
    const loop = /^\s*(for|while)\b(.*):\s*$/.exec(text);
    if (loop && !continuation.has(header)) {
      const kind = loop[1] as "for" | "while";
      const forHead = /^\s*for\s+(.+?)\s+in\s+(.+):\s*$/.exec(text);
      loops.push({
        header,
        end: blockEnd(code, header),
        kind,
        targets: kind === "for" ? boundNames(text) : [],
        head: kind === "for" ? (forHead?.[2] ?? "").trim() : loop[2]!.trim(),
      });
    }
  });
  const occurrences = occurrencesOf(code, continuation);
  const functionNames = new Set(functions.map((fn) => fn.name));
  const names = [
    ...new Set(
      occurrences.filter((o) => o.role === "target" && !functionNames.has(o.name)).map((o) => o.name),
    ),
  ];
  const calls = callsOf(code);
  const recursiveCalls = calls.filter((call) =>
    functions.some((fn) => fn.name === call.callee && call.line > fn.header && call.line < fn.end),
  );
  return { lines, code, entry, functions, loops, names, occurrences, continuation, recursiveCalls, calls };
}

/** Lines where `name` occurs in `role`. */
export function linesWith(facts: ProgramFacts, name: string, role: Occurrence["role"]): number[] {
  return [...new Set(facts.occurrences.filter((o) => o.name === name && o.role === role).map((o) => o.line))];
}

/** The innermost loop containing `line` (its body, not its header). */
export function loopAround(facts: ProgramFacts, line: number): LoopFact | undefined {
  return facts.loops
    .filter((loop) => line > loop.header && line < loop.end)
    .sort((a, b) => b.header - a.header)[0];
}

/** The function whose body holds `line`. */
export function functionAround(facts: ProgramFacts, line: number): FunctionFact | undefined {
  return facts.functions
    .filter((fn) => line > fn.header && line < fn.end)
    .sort((a, b) => b.header - a.header)[0];
}

/** Whether `name` is used like a sequence somewhere (indexed, sliced, measured, iterated, unpacked with a star). */
export function isSequence(facts: ProgramFacts, name: string): boolean {
  const sequence = new RegExp(
    `\\b${name}\\[|len\\(${name}\\)|\\bin ${name}\\b(?![.[(])|\\*\\w+\\s*=\\s*${name}\\b|\\bnot ${name}\\b`,
  );
  const number = new RegExp(`\\b${name}\\s*[-+*/%]\\s*[\\w(]|[-*/%]\\s*${name}\\b|\\b${name}\\s*[<>]=?`);
  const lines = facts.code.map(codeOf);
  return lines.some((line) => sequence.test(line)) && !lines.some((line) => number.test(line));
}

/**
 * The names a function's base cases test: conditions of `if` statements at the top of its body whose block returns
 * without calling the function again.
 */
export function baseCaseTests(facts: ProgramFacts, fn: FunctionFact): Set<string> {
  const tested = new Set<string>();
  const bodyIndent = facts.code
    .slice(fn.header + 1, fn.end)
    .map(codeOf)
    .find((line) => line.trim() !== "");
  const indent = bodyIndent === undefined ? -1 : /^\s*/.exec(bodyIndent)![0].length;
  for (let line = fn.header + 1; line < fn.end; line++) {
    const code = codeOf(facts.code[line]!);
    const test = /^(\s*)(?:if|elif)\s+(.+):\s*$/.exec(code);
    if (!test || test[1]!.length !== indent) continue;
    const end = blockEnd(facts.code, line);
    const body = facts.code
      .slice(line + 1, end)
      .map(codeOf)
      .join("\n");
    if (!/\breturn\b/.test(body) || new RegExp(`\\b${fn.name}\\(`).test(body)) continue;
    for (const { name } of identifiersIn(test[2]!)) if (fn.params.includes(name)) tested.add(name);
  }
  return tested;
}

/** Whether `name` holds a collection: used as a sequence, built as one, or changed through a collection's methods. */
export function isCollection(facts: ProgramFacts, name: string): boolean {
  const n = escapeRegExp(name);
  const built = new RegExp(
    `^\\s*${n}\\s*=\\s*(?:\\[|\\{|\\w*(?:set|list|dict|deque|Queue|Counter|defaultdict)\\()`,
  );
  const methods = new RegExp(
    `\\b${n}\\.(?:append|pop|popleft|add|extend|update|insert|appendleft|remove|discard)\\(`,
  );
  return (
    isSequence(facts, name) ||
    facts.code.some((line) => built.test(codeOf(line)) || methods.test(codeOf(line)))
  );
}
