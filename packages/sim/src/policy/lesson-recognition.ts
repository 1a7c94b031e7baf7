import { allPitfalls } from "../pitfalls/catalog.js";
import type { Pitfall } from "../pitfalls/pitfall.js";
import { type LessonReading, readLesson } from "./read-lesson.js";

/**
 * How the simulated policy reads a set of lessons whose intent is known (a bank written by someone who never read
 * the sim): the share of correct lessons it reads as helpful, of harmful ones as harmful, of unrelated ones that have
 * any effect at all, and of vague lessons and keyword stubs that act like a real lesson. Used by the recognition test
 * and the benchmark, so both report the same figures.
 */
export interface KnownLessons {
  /** Per pitfall id. */
  pitfalls: Record<string, { correct: string[]; harmful: string[]; vague: string[]; stubs: string[] }>;
  unrelated: string[];
}

export interface RecognitionRow {
  pitfall: string;
  correct: { total: number; helpful: number };
  harmful: { total: number; harmful: number };
  /** Vague lessons and stubs read as a full-strength action (they should not be). */
  weak: { total: number; acting: number };
  /** Correct lessons of this pitfall that also act on another pitfall. */
  crossTalk: number;
  misread: { kind: string; text: string; reading: LessonReading }[];
}

export interface RecognitionReport {
  rows: RecognitionRow[];
  unrelated: {
    total: number;
    acting: number;
    misread: { text: string; pitfall: string; reading: LessonReading }[];
  };
  totals: { correctHelpful: number; harmfulHarmful: number; unrelatedActing: number; weakActing: number };
}

function acts(reading: LessonReading): boolean {
  return reading.effect !== "none";
}

export function measureRecognition(
  lessons: KnownLessons,
  pitfalls: readonly Pitfall[] = allPitfalls,
): RecognitionReport {
  const byId = new Map(pitfalls.map((pitfall) => [pitfall.id, pitfall]));
  const rows: RecognitionRow[] = [];
  for (const [id, set] of Object.entries(lessons.pitfalls)) {
    const pitfall = byId.get(id);
    if (!pitfall) throw new Error(`lesson bank names an unknown pitfall "${id}"`);
    const others = pitfalls.filter((other) => other !== pitfall && other.domain === pitfall.domain);
    const row: RecognitionRow = {
      pitfall: id,
      correct: { total: set.correct.length, helpful: 0 },
      harmful: { total: set.harmful.length, harmful: 0 },
      weak: { total: set.vague.length + set.stubs.length, acting: 0 },
      crossTalk: 0,
      misread: [],
    };
    for (const text of set.correct) {
      const reading = readLesson(pitfall.reading, text);
      if (reading.effect === "helps") row.correct.helpful++;
      else row.misread.push({ kind: "correct", text, reading });
      if (others.some((other) => readLesson(other.reading, text).effect === "hurts")) row.crossTalk++;
    }
    for (const text of set.harmful) {
      const reading = readLesson(pitfall.reading, text);
      if (reading.effect === "hurts") row.harmful.harmful++;
      else row.misread.push({ kind: "harmful", text, reading });
    }
    for (const text of [...set.vague, ...set.stubs]) {
      const reading = readLesson(pitfall.reading, text);
      if ((reading.effect === "helps" || reading.effect === "hurts") && reading.strength >= 1) {
        row.weak.acting++;
        row.misread.push({ kind: "weak", text, reading });
      }
    }
    rows.push(row);
  }
  const domains = new Set(Object.keys(lessons.pitfalls).map((id) => byId.get(id)!.domain));
  const candidates = pitfalls.filter((pitfall) => domains.has(pitfall.domain));
  const unrelated = {
    total: lessons.unrelated.length,
    acting: 0,
    misread: [] as RecognitionReport["unrelated"]["misread"],
  };
  for (const text of lessons.unrelated) {
    const hit = candidates
      .map((pitfall) => ({ pitfall: pitfall.id, reading: readLesson(pitfall.reading, text) }))
      .find((entry) => acts(entry.reading));
    if (hit) {
      unrelated.acting++;
      unrelated.misread.push({ text, ...hit });
    }
  }
  const sum = (pick: (row: RecognitionRow) => [number, number]) => {
    const [hit, total] = rows.reduce(
      ([h, t], row) => {
        const [a, b] = pick(row);
        return [h + a, t + b];
      },
      [0, 0],
    );
    return total === 0 ? 0 : hit / total;
  };
  return {
    rows,
    unrelated,
    totals: {
      correctHelpful: sum((row) => [row.correct.helpful, row.correct.total]),
      harmfulHarmful: sum((row) => [row.harmful.harmful, row.harmful.total]),
      unrelatedActing: unrelated.total === 0 ? 0 : unrelated.acting / unrelated.total,
      weakActing: sum((row) => [row.weak.acting, row.weak.total]),
    },
  };
}

/** Readings that point the wrong way: a correct lesson read as hurting, a harmful one read as helping. */
export interface WrongDirectionReport {
  correct: number;
  correctReadAsHurting: string[];
  harmful: number;
  harmfulReadAsHelping: string[];
}

export function measureWrongDirection(
  lessons: KnownLessons,
  pitfalls: readonly Pitfall[] = allPitfalls,
): WrongDirectionReport {
  const byId = new Map(pitfalls.map((pitfall) => [pitfall.id, pitfall]));
  const report: WrongDirectionReport = {
    correct: 0,
    correctReadAsHurting: [],
    harmful: 0,
    harmfulReadAsHelping: [],
  };
  for (const [id, set] of Object.entries(lessons.pitfalls)) {
    const pitfall = byId.get(id);
    if (!pitfall) throw new Error(`lesson bank names an unknown pitfall "${id}"`);
    report.correct += set.correct.length;
    report.harmful += set.harmful.length;
    for (const text of set.correct)
      if (readLesson(pitfall.reading, text).effect === "hurts")
        report.correctReadAsHurting.push(`${id}: ${text}`);
    for (const text of set.harmful)
      if (readLesson(pitfall.reading, text).effect === "helps")
        report.harmfulReadAsHelping.push(`${id}: ${text}`);
  }
  return report;
}
