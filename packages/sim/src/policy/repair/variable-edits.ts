import { isCollection, linesWith, type ProgramFacts } from "./program-facts.js";
import { argumentsAt, codeOf, combinesWithItself, escapeRegExp, spliced } from "./python-text.js";
import { change, type RepairEdit } from "./repair-edit.js";

/**
 * Incorrect variables (SIMULATED agent's knowledge): a name read where another of the program's names belongs, a
 * computed value where a variable belongs, an assignment to the wrong target. Smells: a variable that is filled but
 * never read (`counts` computed, then `arr` enumerated), names that play the same part (passed in the same places:
 * `start`, `helper`, `end`), one call computed twice in one statement (the second is probably something else), and
 * an update `t = min(a, b)` that assigns none of what it compares.
 */

/** Names written (bound or filled) but never read. */
function unread(facts: ProgramFacts): string[] {
  return facts.names.filter(
    (name) =>
      !facts.occurrences.some((o) => o.name === name && o.role === "use") &&
      !facts.loops.some((loop) => loop.targets.includes(name)) &&
      !facts.functions.some((fn) => fn.params.includes(name)),
  );
}

/** Names passed in the same calls or tuples as `name` (bare arguments only). */
function peersOf(facts: ProgramFacts): Map<string, Set<string>> {
  const peers = new Map<string, Set<string>>();
  facts.code.forEach((raw) => {
    const code = codeOf(raw);
    if (/^\s*def\b/.test(code)) return;
    for (let open = 0; open < code.length; open++) {
      if (code[open] !== "(") continue;
      const args = argumentsAt(code, open);
      if (!args) continue;
      const bare = args.parts.map((part) => part.trim()).filter((part) => facts.names.includes(part));
      for (const a of bare)
        for (const b of bare)
          if (a !== b) {
            const set = peers.get(a) ?? new Set<string>();
            set.add(b);
            peers.set(a, set);
          }
    }
  });
  // Arguments of calls to the same function, place by place.
  const byCallee = new Map<string, string[][]>();
  const own = new Set(facts.functions.map((fn) => fn.name));
  for (const call of facts.calls)
    if (own.has(call.callee)) byCallee.set(call.callee, [...(byCallee.get(call.callee) ?? []), call.args]);
  for (const lists of byCallee.values())
    for (const a of lists)
      for (const b of lists)
        a.forEach((arg, index) => {
          const other = b[index];
          if (other && other !== arg && facts.names.includes(arg) && facts.names.includes(other)) {
            const set = peers.get(arg) ?? new Set<string>();
            set.add(other);
            peers.set(arg, set);
          }
        });
  return peers;
}

/** The statement a line belongs to: the line and the lines continuing it. */
function statementOf(facts: ProgramFacts, line: number): number[] {
  let start = line;
  while (start > 0 && facts.continuation.has(start)) start--;
  const lines = [start];
  for (let next = start + 1; facts.continuation.has(next); next++) lines.push(next);
  return lines;
}

export function variableEdits(facts: ProgramFacts): RepairEdit[] {
  const out: RepairEdit[] = [];
  const dead = unread(facts);
  const peers = peersOf(facts);
  const names = facts.names;
  for (const occurrence of facts.occurrences) {
    if (occurrence.role !== "use" || !names.includes(occurrence.name)) continue;
    const raw = facts.code[occurrence.line]!;
    for (const other of names) {
      if (other === occurrence.name) continue;
      const lastWrite = Math.max(
        -1,
        ...linesWith(facts, other, "base"),
        ...linesWith(facts, other, "target"),
      );
      const loop = facts.loops.find((l) => lastWrite > l.header && lastWrite < l.end);
      const afterFilled = occurrence.line >= (loop ? loop.end : lastWrite + 1);
      // A collection for a number, or a number for a collection, is no slip a programmer makes; nor is reading a
      // name before anything bound it.
      if (isCollection(facts, occurrence.name) !== isCollection(facts, other)) continue;
      if (!(linesWith(facts, other, "target")[0]! < occurrence.line)) continue;
      let suspicion = 0.1;
      if (dead.includes(other) && afterFilled) suspicion = 0.8;
      else if (peers.get(occurrence.name)?.has(other)) suspicion = 0.45;
      const after = spliced(raw, occurrence.at, occurrence.at + occurrence.name.length, other);
      if (combinesWithItself(after) && !combinesWithItself(raw)) continue;
      out.push(change("variable", "name", occurrence.line, after, suspicion));
    }
  }
  // A recursive call on exactly what the function received: it can only recur forever. One of them should be a
  // value the function has at hand (a loop's item, a part it took).
  for (const call of facts.recursiveCalls) {
    const fn = facts.functions.find((f) => f.name === call.callee);
    if (
      !fn ||
      call.args.length === 0 ||
      call.args.join(",") !== fn.params.slice(0, call.args.length).join(",")
    )
      continue;
    const raw = facts.code[call.line]!;
    const args = argumentsAt(raw, call.open);
    if (!args) continue;
    const local = facts.occurrences.filter(
      (o) => o.role === "target" && o.line > fn.header && o.line < call.line && !fn.params.includes(o.name),
    );
    call.args.forEach((arg, index) => {
      const offset = args.start + args.parts.slice(0, index).join(",").length + (index > 0 ? 1 : 0);
      const at = raw.indexOf(arg, offset);
      for (const name of new Set(local.map((o) => o.name)))
        out.push(change("variable", "name", call.line, spliced(raw, at, at + arg.length, name), 0.8));
    });
  }
  // One call computed twice in one statement: the later one replaced by a value the function has at hand.
  const seen = new Set<string>();
  for (const call of facts.calls) {
    const text = `${call.callee}(${call.args.join(", ")})`;
    const statement = statementOf(facts, call.line);
    const key = `${statement[0]}:${text}`;
    const twin = facts.calls.find(
      (other) =>
        other !== call &&
        other.line < call.line &&
        statement.includes(other.line) &&
        `${other.callee}(${other.args.join(", ")})` === text,
    );
    if (!twin || seen.has(key) || call.args.length === 0) continue;
    seen.add(key);
    const raw = facts.code[call.line]!;
    const at = raw.indexOf(`${call.callee}(`, 0);
    const args = argumentsAt(raw, at + call.callee.length);
    if (at < 0 || !args) continue;
    const bound = facts.occurrences.filter((o) => o.role === "target" && o.line < call.line);
    // Values bound in a loop around the call are the ones at hand there.
    const near = (line: number) =>
      facts.loops.some((l) => l.header <= line && line < l.end && l.header < call.line && call.line < l.end);
    for (const name of new Set(bound.map((o) => o.name))) {
      if (call.args.includes(name) || isCollection(facts, name) || linesWith(facts, name, "base").length > 0)
        continue;
      const suspicion = bound.some((o) => o.name === name && near(o.line)) ? 0.7 : 0.3;
      out.push(change("variable", "value", call.line, spliced(raw, at, args.end + 1, name), suspicion));
    }
  }
  // `t = min(a, b)` assigning none of what it compares: assign one of them.
  facts.code.forEach((raw, line) => {
    const update = /^(\s*)([\w.]+(?:\[[^\]]*\])?)\s*=\s*(min|max)\(/.exec(codeOf(raw));
    if (!update) return;
    const open = update[0].length - 1;
    const statement = statementOf(facts, line)
      .map((index) => codeOf(facts.code[index]!))
      .join(" ");
    const args = argumentsAt(statement, open);
    if (!args) return;
    const target = update[2]!;
    const parts = args.parts.map((part) => part.trim());
    if (parts.includes(target)) return;
    for (const part of parts) {
      if (!/^[\w.]+(?:\[[^\]]*\])?$/.test(part) || /^\d/.test(part)) continue;
      out.push(
        change(
          "variable",
          "target",
          line,
          raw.replace(new RegExp(`^(\\s*)${escapeRegExp(target)}`), `$1${part}`),
          0.8,
        ),
      );
    }
  });
  return out;
}
