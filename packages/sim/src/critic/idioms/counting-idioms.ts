import { callArguments } from "../python-source.js";
import { lineWith } from "./code-view.js";
import type { Idiom } from "./idiom.js";

const plusOne = /\+\s*1\s*$/;

interface RangeCall {
  lo: string;
  hi: string;
  text: string;
}

function rangeCalls(text: string): RangeCall[] {
  return callArguments(text, "range")
    .filter((args) => args.length >= 2)
    .map(([lo, hi]) => ({ lo: lo!, hi: hi!, text: `range(${lo}, ${hi})` }));
}

const inclusiveWording =
  /\binclusive\b|\binclud(?:e|es|ed|ing) both\b|\bboth\b[^.?]*\binclud|\bthrough\b|\bfirst and (?:the )?last\b/i;

/** A name held between two comparisons (`0 <= t <= 1`), or a name checked from both sides with `and`. */
function boundsCheck(text: string): string | null {
  const chained = /[\w.)\]]+\s*<=?\s*[A-Za-z_]\w*\s*<=?\s*[\w.(]+(?:\([^)]*\))?/.exec(text);
  if (chained) return chained[0];
  const paired = /\b([A-Za-z_]\w*)\s*>=?\s*[\w.()]+\s+and\s+\1\s*<=?\s*[\w.()]+/.exec(text);
  return paired ? paired[0] : null;
}

const inclusiveRange: Idiom = {
  id: "inclusive-range",
  contrast(loser, winner) {
    const losing = rangeCalls(loser.text);
    const winning = rangeCalls(winner.text);
    const bad = losing.find(
      (r) => (plusOne.test(r.lo) || !plusOne.test(r.hi)) && !winning.some((w) => w.text === r.text),
    );
    const good = winning.find(
      (r) => plusOne.test(r.hi) && !plusOne.test(r.lo) && !losing.some((l) => l.text === r.text),
    );
    return bad && good ? { loser: bad.text, winner: good.text } : null;
  },
  suspect(code, problem) {
    if (!inclusiveWording.test(problem)) return null;
    const bad = rangeCalls(code.text).find((r) => plusOne.test(r.lo) || !plusOne.test(r.hi));
    return bad ? { loser: bad.text } : null;
  },
  flag: (m) =>
    `\`${m.loser}\` leaves out ${/\+\s*1\s*,/.test(m.loser) ? "both bounds" : "the upper bound"}, but the problem counts both bounds; \`range(lo, hi + 1)\` would have included them`,
  advice: {
    situations: [
      "counting integers between two bounds that both belong to the count",
      "tallying values over an inclusive interval",
    ],
    actions: [
      "loop over `range(lo, hi + 1)` so the lower and the upper bound are both counted",
      "write `range(lo, hi + 1)`: start at the lower bound itself and reach the upper one",
      "make both bounds part of the count, e.g. `range(lo, hi + 1)`",
      "count the two bounds as well, using `range(lo, hi + 1)`",
    ],
    avoid: [
      "starting at `lo + 1` or stopping before `hi`",
      "using `range(lo + 1, hi)`",
      "dropping the two bounds",
    ],
    because: [
      "`range` stops one short of its second argument",
      "`range(lo + 1, hi)` misses both bounds",
      "the bounds themselves are part of an inclusive count",
    ],
    misguided: [
      "skip both bounds with `range(lo + 1, hi)`, since only the values strictly inside count",
      "leave the two bounds out of the count",
      "count only the numbers strictly inside the interval",
    ],
    cues: {
      topic: /\brange\b|\bbounds?\b|\bendpoints?\b|\binclusive\b|\binterval\b|\bbetween\b|\bends?\b/i,
      right:
        /\binclud(?:e|es|ing)\b|hi \+ 1|\+ 1\)|\b(?:count|keep)(?:ing|s)? (?:both|the two)\b|\bbounds? (?:are|is) (?:both )?counted\b|\breach\b/i,
      wrong:
        /\bexclu|\bstrictly\b|\bleave (?:out|off)\b|\bleave\b[^.;,]{0,30}\bout\b|\bleft out\b|\bskip|\bomit|\bdrop|lo \+ 1|\bonly (?:the )?(?:values|numbers) (?:strictly )?inside\b/i,
    },
  },
};

function dayAdjustment(text: string): "+1" | "-1" | "none" | null {
  const m = /\.days\b(\s*([+-])\s*1(?![\d.]))?/.exec(text);
  if (!m) return null;
  return m[1] ? (m[2] === "+" ? "+1" : "-1") : "none";
}

const inclusiveDays: Idiom = {
  id: "inclusive-days",
  contrast(loser, winner) {
    const bad = dayAdjustment(loser.text);
    if (bad === null || bad === "+1" || dayAdjustment(winner.text) !== "+1") return null;
    return {
      loser: lineWith(loser, /\.days\b/) ?? ".days",
      winner: lineWith(winner, /\.days\b/) ?? ".days + 1",
    };
  },
  suspect(code, problem) {
    if (!inclusiveWording.test(problem) && !/\bboth\b.*\bday\b/i.test(problem)) return null;
    const adjustment = dayAdjustment(code.text);
    return adjustment === "none" || adjustment === "-1"
      ? { loser: lineWith(code, /\.days\b/) ?? ".days" }
      : null;
  },
  flag: (m) =>
    `\`${m.loser}\` counts the gaps between the two dates, not the days; with both end days included it should add one`,
  advice: {
    situations: ["counting the days of a period given by its start and end dates"],
    actions: [
      "add one to the date difference, `(end - start).days + 1`, so the first and the last day are each included",
      "take `(end - start).days + 1`: a span that includes both end dates has one more day than the difference",
      "count both end days by adding 1 to the subtraction of the dates",
    ],
    avoid: ["subtracting one from the date difference", "using the bare date difference"],
    because: [
      "subtracting two dates counts the steps between them, not the days",
      "the difference of two dates misses one of the end days",
    ],
    misguided: [
      "subtract one from the date difference so the two boundary days drop out",
      "use the plain date difference; the end days do not add anything",
    ],
    cues: {
      topic: /\bdays?\b|\bdates?\b|\bspan\b|\bperiod\b/i,
      right: /\+ 1\b|\badd(?:ing)? (?:one|1)\b|\b(?:count|keep)(?:ing|s)? both\b|\binclud(?:e|es|ing)\b/i,
      wrong: /- 1\b|\bsubtract (?:one|1)\b|\bexclu|\bdrop out\b|\bleave out\b|\bplain date difference\b/i,
    },
  },
};

const boundedParameter: Idiom = {
  id: "bounded-parameter",
  contrast(loser, winner, problem) {
    const good = boundsCheck(winner.text);
    if (!good || boundsCheck(loser.text)) return null;
    if (!/\bsegment\b|\bbetween\b|\bedge\b|\bside\b/i.test(problem) && !/\bt\b/.test(good)) return null;
    return {
      loser: lineWith(loser, /\bif\b/) ?? lineWith(loser, /\+=/) ?? loser.lines.at(-1) ?? "",
      winner: good,
    };
  },
  suspect(code, problem) {
    if (!/\bsegment\b/i.test(problem) || boundsCheck(code.text)) return null;
    const counted = lineWith(code, /\+=\s*1\b/);
    return counted ? { loser: lineWith(code, /\bif\b/) ?? counted } : null;
  },
  flag: (m) =>
    `\`${m.loser}\` counts every crossing of the infinite line, never checking that the point lies between the two endpoints (0 <= t <= 1)`,
  advice: {
    situations: [
      "counting the lines that cross a finite segment",
      "intersecting lines with a segment between two points",
    ],
    actions: [
      "keep a crossing only when its position along the segment satisfies `0 <= t <= 1`",
      "check that each intersection lies between the two endpoints (parameter `0 <= t <= 1`) before counting it",
      "count a hit only if the intersection parameter `t` is within `[0, 1]`",
    ],
    avoid: [
      "counting every crossing of the infinite line through the endpoints",
      "treating the segment as an endless line",
    ],
    because: [
      "a line can meet the extension of the segment outside its endpoints",
      "points beyond the endpoints are not on the segment",
    ],
    misguided: [
      "count every crossing of the infinite line, wherever along it the crossing falls",
      "treat the segment as a full line and count all its crossings",
    ],
    cues: {
      topic: /\bsegments?\b|\bintersect|\bcross/i,
      right:
        /0 <= t <= 1|\[0, 1\]|\bbetween (?:the|its) (?:two )?endpoints\b|\bwithin\b|\bon the segment\b|\bcheck|\bverif/i,
      wrong:
        /\bextension\b|\binfinite line\b|\bfull line\b|\bendless\b|\bevery crossing\b|\bdoes not matter\b|\ball (?:its )?crossings\b/i,
    },
  },
};

/** Counting over ranges and spans: inclusive integer ranges, inclusive day counts, points on a segment. */
export const countingIdioms: readonly Idiom[] = [inclusiveDays, inclusiveRange, boundedParameter];
