import type { ExperienceLine } from "../text/experience-lines.js";
import { tokenize } from "../text/normalize-text.js";
import type { Advice } from "./finding.js";

/**
 * The critic's crude reading of the experience lines in its prompt, against one finding: is a line on the same
 * topic, and does it point the way the evidence does (it already says the lesson), the other way (its advice led to
 * the error), or neither? Cue words inside a negated clause ("do not skip", "rather than ...") count the other way.
 */

export type Stance = "right" | "wrong" | "topic" | "unrelated";

const negation =
  /\b(?:not|never|no|avoid|instead of|rather than|without|nor|neither|steer clear of|stay away from)\b|n't\b/i;

function globalOf(pattern: RegExp): RegExp {
  return new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
}

function votes(text: string, pattern: RegExp): { plain: number; negated: number } {
  let plain = 0;
  let negated = 0;
  for (const m of text.matchAll(globalOf(pattern))) {
    const before = text.slice(0, m.index);
    const clauseStart = Math.max(...[".", ";", ":", ",", "!", "?"].map((mark) => before.lastIndexOf(mark)));
    if (negation.test(before.slice(clauseStart + 1))) negated++;
    else plain++;
  }
  return { plain, negated };
}

export function stanceOf(text: string, cues: Advice["cues"]): Stance {
  if (!cues.topic.test(text)) return "unrelated";
  const right = votes(text, cues.right);
  const wrong = votes(text, cues.wrong);
  const forward = right.plain + wrong.negated;
  const backward = wrong.plain + right.negated;
  // Cues both ways in equal measure: the line is unclear, not a statement of the lesson.
  if (backward > forward) return "wrong";
  if (forward > backward) return "right";
  return "topic";
}

/** Content words two texts share, over the words of both (0..1). */
export function overlap(a: string, b: string): number {
  const x = new Set(tokenize(a));
  const y = new Set(tokenize(b));
  let shared = 0;
  for (const token of x) if (y.has(token)) shared++;
  return shared / Math.max(1, x.size + y.size - shared);
}

export interface LibraryReading {
  /** Lines whose advice points against the evidence. */
  misleading: ExperienceLine[];
  /** Lines that already say the lesson. */
  same: ExperienceLine[];
  /** Lines on the topic without a clear direction. */
  topical: ExperienceLine[];
}

export function readLibrary(
  lines: readonly ExperienceLine[],
  cues: Advice["cues"],
  lesson: string,
): LibraryReading {
  const out: LibraryReading = { misleading: [], same: [], topical: [] };
  for (const line of lines) {
    const stance = stanceOf(line.text, cues);
    if (stance === "wrong") out.misleading.push(line);
    else if (stance === "right" || overlap(line.text, lesson) >= 0.45) out.same.push(line);
    else if (stance === "topic") out.topical.push(line);
  }
  return out;
}
