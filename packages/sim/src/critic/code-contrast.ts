import type { Advice } from "./finding.js";
import { type CodeView, type Idiom, type IdiomMatch, pythonIdioms } from "./python-idioms.js";
import { abstractNumbers, codeTokens, lineShape } from "./python-source.js";

/**
 * Comparing a losing program with a winning one for the same problem: which idioms the critic knows differ between
 * them, and, when it knows none, the differing lines themselves (numbers replaced by letters) as a plain lesson.
 */

export interface IdiomHit {
  idiom: Idiom;
  match: IdiomMatch;
}

/** Differing code, abstracted; `loser` or `winner` is null when only the other program has the line. */
export interface GenericDifference {
  loser: string | null;
  winner: string | null;
}

export interface CodeContrast {
  hits: IdiomHit[];
  generic: GenericDifference | null;
}

function similarity(a: string, b: string): number {
  const x = new Set(codeTokens(a));
  const y = new Set(codeTokens(b));
  let shared = 0;
  for (const token of x) if (y.has(token)) shared++;
  return shared / Math.max(1, x.size + y.size - shared);
}

const wordChar = /[\w.]/;

function count(text: string, ch: string): number {
  return text.split(ch).length - 1;
}

/** The part of two similar lines that differs, widened to whole tokens and balanced parentheses. */
function differingPart(loser: string, winner: string): [string, string] {
  if (loser.length <= 48 && winner.length <= 48) return [loser, winner];
  let prefix = 0;
  while (prefix < loser.length && prefix < winner.length && loser[prefix] === winner[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < loser.length - prefix &&
    suffix < winner.length - prefix &&
    loser[loser.length - 1 - suffix] === winner[winner.length - 1 - suffix]
  )
    suffix++;
  let start = prefix;
  while (start > 0 && wordChar.test(loser[start - 1]!)) start--;
  if (start > 0 && loser[start - 1] === "(") {
    start--;
    while (start > 0 && wordChar.test(loser[start - 1]!)) start--;
  }
  const widen = (text: string) => {
    let end = text.length - suffix;
    while (end < text.length && wordChar.test(text[end]!)) end++;
    while (end < text.length && count(text.slice(start, end), "(") > count(text.slice(start, end), ")"))
      end++;
    return text.slice(start, end).trim();
  };
  return [widen(loser), widen(winner)];
}

/** The most telling differing line pair of two programs, numbers abstracted, or null when they do the same. */
export function genericDifference(loser: CodeView, winner: CodeView): GenericDifference | null {
  const winnerShapes = new Set(winner.lines.map(lineShape));
  const loserShapes = new Set(loser.lines.map(lineShape));
  const loserOnly = loser.lines.filter(
    (line) => !winnerShapes.has(lineShape(line)) && !/^print\s*\(\w+\)$/.test(line),
  );
  const winnerOnly = winner.lines.filter(
    (line) => !loserShapes.has(lineShape(line)) && !/^print\s*\(\w+\)$/.test(line),
  );
  const names = new Map<string, string>();
  if (loserOnly.length > 0 && winnerOnly.length > 0) {
    let best: [string, string] = [loserOnly[0]!, winnerOnly[0]!];
    let score = -1;
    for (const l of loserOnly)
      for (const w of winnerOnly) {
        const s = similarity(l, w);
        if (s > score) {
          score = s;
          best = [l, w];
        }
      }
    const reserved = new Set(`${best[0]} ${best[1]}`.match(/[A-Za-z_]\w*/g) ?? []);
    const [l, w] = differingPart(
      abstractNumbers(best[0], names, reserved),
      abstractNumbers(best[1], names, reserved),
    );
    return { loser: l, winner: w };
  }
  if (winnerOnly.length > 0) return { loser: null, winner: abstractNumbers(winnerOnly[0]!, names) };
  if (loserOnly.length > 0) return { loser: abstractNumbers(loserOnly[0]!, names), winner: null };
  return null;
}

/** Idioms that tell the two programs apart, and the raw difference when no idiom does. */
export function contrastCode(loser: CodeView, winner: CodeView, problem: string): CodeContrast {
  const hits: IdiomHit[] = [];
  for (const idiom of pythonIdioms) {
    const match = idiom.contrast(loser, winner, problem);
    if (match) hits.push({ idiom, match });
  }
  return { hits, generic: hits.length > 0 ? null : genericDifference(loser, winner) };
}

/** Idioms of one program that look wrong for its problem (no winner to compare with). */
export function suspectCode(code: CodeView, problem: string): IdiomHit[] {
  const hits: IdiomHit[] = [];
  for (const idiom of pythonIdioms) {
    const match = idiom.suspect(code, problem);
    if (match) hits.push({ idiom, match });
  }
  return hits;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function namesIn(text: string): string[] {
  return (text.match(/[A-Za-z_][\w.]*/g) ?? []).filter((name) => name.length > 2);
}

/** Advice for a difference the critic has no idiom for: write the winning line, not the losing one. */
export function genericAdvice(difference: GenericDifference): Advice {
  const { loser, winner } = difference;
  const topicNames = [...new Set([...namesIn(loser ?? ""), ...namesIn(winner ?? "")])].map(escapeRegExp);
  const topic = topicNames.length > 0 ? new RegExp(topicNames.join("|")) : /(?!)/;
  const right = winner ? new RegExp(escapeRegExp(winner)) : /(?!)/;
  const wrong = loser ? new RegExp(escapeRegExp(loser)) : /(?!)/;
  const cues = { topic, right, wrong };
  if (loser && winner)
    return {
      situations: [],
      actions: [
        `write \`${winner}\` rather than \`${loser}\``,
        `use \`${winner}\`, not \`${loser}\``,
        `compute that step as \`${winner}\` instead of \`${loser}\``,
      ],
      avoid: [],
      because: [`\`${loser}\` gave a wrong result where \`${winner}\` gave the right one`],
      misguided: [`write \`${loser}\` rather than \`${winner}\``, `prefer \`${loser}\` over \`${winner}\``],
      cues,
    };
  if (winner)
    return {
      situations: [],
      actions: [`include a step like \`${winner}\``, `add \`${winner}\` to the computation`],
      avoid: ["skipping that step"],
      because: ["the attempts without it went wrong"],
      misguided: [`leave out \`${winner}\``],
      cues,
    };
  return {
    situations: [],
    actions: [`drop the step \`${loser}\``, `do the computation without \`${loser}\``],
    avoid: [`adding \`${loser}\``],
    because: ["only the failed attempts had that step"],
    misguided: [`add a step like \`${loser}\``],
    cues,
  };
}
