import type { FallProbabilities } from "./behaviour.js";
import type { Pitfall } from "./pitfalls/pitfall.js";
import { readLesson } from "./policy/read-lesson.js";
import type { ExperienceLine } from "./text/experience-lines.js";

export type AddressStatus = keyof FallProbabilities;

export interface PitfallReading {
  status: AddressStatus;
  /** 0..1: how strongly the deciding lines act (a short stub acts half as much as a specific lesson). */
  strength: number;
  /** Ids of lines addressing the pitfall the right way / the wrong way / naming it without direction. */
  helping: string[];
  hurting: string[];
  neutral: string[];
}

/** What the experience lines of a prompt say about one pitfall, as the policy reads them. */
export function readPitfall(pitfall: Pitfall, lines: readonly ExperienceLine[]): PitfallReading {
  const helping: string[] = [];
  const hurting: string[] = [];
  const neutral: string[] = [];
  let helpStrength = 0;
  let hurtStrength = 0;
  for (const line of lines) {
    const reading = readLesson(pitfall.reading, line.text);
    if (reading.effect === "helps") {
      helping.push(line.id);
      helpStrength = Math.max(helpStrength, reading.strength);
    } else if (reading.effect === "hurts") {
      hurting.push(line.id);
      hurtStrength = Math.max(hurtStrength, reading.strength);
    } else if (reading.effect === "vague") neutral.push(line.id);
  }
  if (helping.length > 0 && hurting.length > 0)
    return { status: "conflict", strength: 1, helping, hurting, neutral };
  if (helping.length > 0) return { status: "helps", strength: helpStrength, helping, hurting, neutral };
  if (hurting.length > 0) return { status: "hurts", strength: hurtStrength, helping, hurting, neutral };
  return { status: neutral.length > 0 ? "neutral" : "none", strength: 1, helping, hurting, neutral };
}

/**
 * The chance of falling in, given the reading: a full-strength lesson gives the table's figure; a weaker one lies
 * between that and what a vague mention (helping) or no mention (hurting) would give.
 */
export function fallProbability(table: FallProbabilities, reading: PitfallReading): number {
  const base = table[reading.status];
  if (reading.status === "helps") return table.neutral + reading.strength * (base - table.neutral);
  if (reading.status === "hurts") return table.none + reading.strength * (base - table.none);
  return base;
}
