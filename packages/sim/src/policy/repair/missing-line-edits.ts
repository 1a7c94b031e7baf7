import { isCollection, type LoopFact, linesWith, type ProgramFacts } from "./program-facts.js";
import { blockEnd, codeOf, escapeRegExp, indentOf, isBlank, opensBlock } from "./python-text.js";
import type { RepairEdit } from "./repair-edit.js";

/**
 * Missing lines (SIMULATED agent's knowledge): a statement that updates the program's state is absent. Smells, each
 * a thing a reviewer notices in the text: a collection the code asks about (`x in seen`) but never fills; a stack it
 * takes from but never pushes onto; a variable set before a loop and read in it that the loop never updates (the
 * value is carried from one round to the next by a line that is not there); a loop that cuts pieces off a value into
 * a list and drops what is left when it ends.
 */

interface Place {
  /** The line the statement goes next to. */
  line: number;
  where: "before" | "after";
  indent: string;
}

function insertion(
  facts: ProgramFacts,
  place: Place,
  statement: string,
  style: string,
  suspicion: number,
): RepairEdit {
  const text = `${place.indent}${statement}`;
  const line = facts.code[place.line]!;
  return {
    kind: "missing-line",
    style,
    line: place.line,
    replace: place.where === "before" ? [text, line] : [line, text],
    suspicion,
    adds: true,
  };
}

const elseLike = /^\s*(?:else|elif|except|finally)\b/;

/** Where a statement may go in lines `[from, to)`: before each statement, and after each block that ends there. */
function placesIn(facts: ProgramFacts, from: number, to: number): Place[] {
  const places: Place[] = [];
  const code = facts.code;
  for (let line = from; line < to; line++) {
    const text = code[line]!;
    if (isBlank(text) || facts.continuation.has(line) || elseLike.test(text)) continue;
    places.push({ line, where: "before", indent: " ".repeat(indentOf(text)) });
    if (!opensBlock(codeOf(text))) continue;
    const end = blockEnd(code, line);
    if (end > to) continue;
    let last = end - 1;
    while (last > line && isBlank(code[last]!)) last--;
    const body = code.slice(line + 1, end).find((l) => !isBlank(l));
    if (body) places.push({ line: last, where: "after", indent: " ".repeat(indentOf(body)) });
    const next = code.slice(end).find((l) => !isBlank(l));
    if (!next || !elseLike.test(next))
      places.push({ line: last, where: "after", indent: " ".repeat(indentOf(text)) });
  }
  return places;
}

const fills = (name: string) =>
  new RegExp(
    `\\b${escapeRegExp(name)}\\s*(?:\\.(?:add|append|extend|update|insert|appendleft|setdefault)\\(|\\[[^\\]]*\\]\\s*=(?!=)|\\+=)`,
  );

function built(facts: ProgramFacts, name: string): "set" | "list" | null {
  for (const line of facts.code) {
    const match = new RegExp(
      `^\\s*${escapeRegExp(name)}\\s*=\\s*(set\\(|\\{\\s*\\}|\\[|\\w*(?:deque|Queue|list)\\()`,
    ).exec(codeOf(line));
    if (match) return match[1]!.startsWith("set") ? "set" : match[1]!.startsWith("{") ? null : "list";
  }
  return null;
}

function functionEnd(facts: ProgramFacts, line: number): number {
  return (
    facts.functions.filter((fn) => line > fn.header && line < fn.end).sort((a, b) => b.header - a.header)[0]
      ?.end ?? facts.code.length
  );
}

export function missingLineEdits(facts: ProgramFacts): RepairEdit[] {
  const out: RepairEdit[] = [];
  const code = facts.code.map(codeOf);
  const collections = facts.names.filter((name) => isCollection(facts, name));
  for (const name of collections) {
    const kind = built(facts, name);
    if (!kind || code.some((line) => fills(name).test(line))) continue;
    // Asked about but never filled: remember what was asked about.
    const check = code.findIndex((line) =>
      new RegExp(`\\b(\\w+)\\s+(?:not\\s+)?in\\s+${escapeRegExp(name)}\\b`).test(line),
    );
    if (check >= 0) {
      const element = new RegExp(`\\b(\\w+)\\s+(?:not\\s+)?in\\s+${escapeRegExp(name)}\\b`).exec(
        code[check]!,
      )![1]!;
      const statement = `${name}.${kind === "set" ? "add" : "append"}(${element})`;
      for (const [k, place] of placesIn(facts, check + 1, functionEnd(facts, check)).entries())
        out.push(insertion(facts, place, statement, "remember", Math.max(0.5, 0.85 - 0.03 * k)));
    }
    // Taken from but never pushed onto: push what the loop around the taking holds.
    const take = code.findIndex((line) =>
      new RegExp(`\\b${escapeRegExp(name)}(?:\\.pop(?:left)?\\(|\\[-1\\])`).test(line),
    );
    const loop = take >= 0 ? outermostLoop(facts, take) : undefined;
    if (loop && kind === "list") {
      // Pushed after it is taken from: places from the taking on first, nearest first.
      const after = (place: Place) => (place.line >= take ? place.line - take : 100 + take - place.line);
      const places = placesIn(facts, loop.header + 1, loop.end).sort((a, b) => after(a) - after(b));
      for (const target of loop.targets)
        for (const [k, place] of places.entries())
          out.push(
            insertion(facts, place, `${name}.append(${target})`, "push", Math.max(0.5, 0.85 - 0.03 * k)),
          );
    }
  }
  for (const loop of facts.loops) {
    out.push(...carriedState(facts, loop), ...remainder(facts, loop));
  }
  return out;
}

function outermostLoop(facts: ProgramFacts, line: number): LoopFact | undefined {
  return facts.loops
    .filter((loop) => line > loop.header && line < loop.end)
    .sort((a, b) => a.header - b.header)[0];
}

/** A variable set before the loop (by an assignment), read in it, never updated in it: the update that carries it. */
function carriedState(facts: ProgramFacts, loop: LoopFact): RepairEdit[] {
  const out: RepairEdit[] = [];
  const inside = (line: number) => line >= loop.header && line < loop.end;
  const passed = (name: string) =>
    facts.calls.some(
      (call) =>
        inside(call.line) && call.args.some((arg) => new RegExp(`\\b${escapeRegExp(name)}\\b`).test(arg)),
    );
  const rebound = [
    ...new Set(facts.occurrences.filter((o) => o.role === "target" && inside(o.line)).map((o) => o.name)),
  ];
  for (const name of facts.names) {
    // Set to a starting value (a constant, a name, an item or a field of one) by an assignment before the loop, at
    // the loop's level.
    const start = new RegExp(
      `^\\s*${escapeRegExp(name)}\\s*=\\s*(?:None|True|False|-?\\d+|'[^']*'|"[^"]*"|\\w+(?:\\[[^\\]]*\\]|\\.\\w+)?)\\s*$`,
    );
    const before = linesWith(facts, name, "target").filter(
      (line) =>
        line < loop.header &&
        start.test(codeOf(facts.code[line]!)) &&
        indentOf(facts.code[line]!) === indentOf(facts.code[loop.header]!),
    );
    if (before.length === 0 || isCollection(facts, name) || passed(name)) continue;
    if (!linesWith(facts, name, "use").some((line) => line > loop.header && line < loop.end)) continue;
    if ([...linesWith(facts, name, "target"), ...linesWith(facts, name, "base")].some(inside)) continue;
    // The loop's cursor (named in its head) first, placed just before the line that moves it on.
    const cursors = rebound.filter(
      (other) => other !== name && new RegExp(`\\b${escapeRegExp(other)}\\b`).test(loop.head),
    );
    const others = rebound.filter((other) => other !== name && !cursors.includes(other));
    const places = placesIn(facts, loop.header + 1, loop.end);
    for (const value of [...cursors, ...others]) {
      const moves = linesWith(facts, value, "target").find((line) => line > loop.header && line < loop.end);
      const ordered = [
        ...places.filter((place) => place.where === "before" && place.line === moves),
        ...places.filter((place) => !(place.where === "before" && place.line === moves)),
      ];
      const first = cursors.includes(value) ? 0.8 : 0.65;
      for (const [k, place] of ordered.entries())
        out.push(insertion(facts, place, `${name} = ${value}`, "carry", Math.max(0.4, first - 0.05 * k)));
    }
  }
  return out;
}

/** A loop that cuts pieces into a list: what is left when it ends, appended after it. */
function remainder(facts: ProgramFacts, loop: LoopFact): RepairEdit[] {
  const out: RepairEdit[] = [];
  const body = facts.code.slice(loop.header + 1, loop.end).map(codeOf);
  const appends = body
    .map((line) => /^\s*(\w+)\.append\((.+)\)\s*$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null);
  if (appends.length === 0) return out;
  let last = loop.end - 1;
  while (last > loop.header && isBlank(facts.code[last]!)) last--;
  const place: Place = { line: last, where: "after", indent: " ".repeat(indentOf(facts.code[loop.header]!)) };
  const end = functionEnd(facts, loop.header);
  const readAfter = (name: string) =>
    linesWith(facts, name, "use").some((line) => line >= loop.end && line < end);
  const reboundInside = (name: string) =>
    facts.occurrences.some(
      (o) => o.name === name && o.role === "target" && o.line > loop.header && o.line < loop.end,
    );
  for (const list of new Set(appends.map((match) => match[1]!))) {
    if (loop.kind === "while")
      for (const name of facts.names)
        if (
          new RegExp(`\\b${escapeRegExp(name)}\\b`).test(loop.head) &&
          reboundInside(name) &&
          !readAfter(name)
        )
          out.push(insertion(facts, place, `${list}.append(${name})`, "remainder", 0.8));
    for (const match of appends.filter((m) => m[1] === list)) {
      const carried = facts.names.filter(
        (name) =>
          new RegExp(`\\b${escapeRegExp(name)}\\b`).test(match[2]!) &&
          reboundInside(name) &&
          !loop.targets.includes(name),
      );
      if (carried.length > 0)
        out.push(insertion(facts, place, `${list}.append(${match[2]})`, "remainder", 0.35));
    }
  }
  return out;
}
