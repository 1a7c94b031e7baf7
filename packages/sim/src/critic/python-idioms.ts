import type { Advice } from "./finding.js";
import { callArguments } from "./python-source.js";

/**
 * The critic's own knowledge of Python and of elementary math: what common idioms compute and where they go wrong
 * (`range(lo + 1, hi)` leaves out both bounds, `math.fmod` keeps the dividend's sign, `cmath.sqrt` returns complex
 * roots, rounding in between drifts, a plain average of means ignores group sizes, `perm` counts orders, squaring
 * a draw probability assumes replacement, `//` drops the fraction). It is general knowledge a capable model has,
 * written here in the critic's words; it knows nothing about which mistakes the simulated policy makes.
 */

export interface CodeView {
  lines: readonly string[];
  /** The lines joined with newlines. */
  text: string;
  /** The last line the program printed, when it ran. */
  printed: string | null;
}

export function codeView(lines: readonly string[], printed: string | null = null): CodeView {
  return { lines, text: lines.join("\n"), printed };
}

/** Code fragments that show the difference (verbatim, numbers kept). */
export interface IdiomMatch {
  loser: string;
  winner?: string;
}

export interface Idiom {
  id: string;
  /** A losing and a winning program of the same problem differ in this idiom. */
  contrast(loser: CodeView, winner: CodeView, problem: string): IdiomMatch | null;
  /** One program, with the problem, looks wrong in this idiom (no contrast to lean on). */
  suspect(code: CodeView, problem: string): IdiomMatch | null;
  /** Stage-1 wording of the error, after `ERROR -`. */
  flag(match: IdiomMatch): string;
  advice: Advice;
}

// --- helpers --------------------------------------------------------------------------------------------------

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

const zeroComparison = /\b[A-Za-z_]\w*\s*(?:>=|<=|==|!=|>|<)\s*0(?![\w.])/;

function comparisonToZero(text: string): string | null {
  return zeroComparison.exec(text)?.[0] ?? null;
}

function lineWith(view: CodeView, pattern: RegExp): string | null {
  return view.lines.find((line) => pattern.test(line)) ?? null;
}

function roundingNames(view: CodeView): string[] {
  const names = ["round"];
  view.lines.forEach((line, i) => {
    const def = /^def (\w+)\s*\(/.exec(line);
    if (!def) return;
    const body = view.lines[i + 1] ?? "";
    if (/round|cent|floor|ceil/i.test(def[1]!) || /\b(?:round|floor|ceil|quantize)\s*\(/.test(body))
      names.push(def[1]!);
  });
  return names;
}

/** A line that rounds a value which later lines keep computing with. */
function earlyRounding(view: CodeView): string | null {
  const names = roundingNames(view);
  const call = new RegExp(`(?<![\\w.])(?:${names.join("|")})\\s*\\(|\\.quantize\\s*\\(`);
  const computing = view.lines
    .map((line, index) => ({ line, index }))
    .filter(
      ({ line, index }) =>
        !/^(?:def |return\b|print\s*\()/.test(line) && !/^def /.test(view.lines[index - 1] ?? ""),
    );
  for (let i = 0; i < computing.length - 1; i++) {
    if (call.test(computing[i]!.line) && /^[\w.[\]]+\s*=[^=]/.test(computing[i]!.line))
      return computing[i]!.line;
  }
  return null;
}

function netPercent(view: CodeView): string | null {
  for (const line of view.lines) {
    if (/\(\s*(?:100|1)\s*[+-]\s*[\w.]+(?:\s*\/\s*100)?\s*[+-]\s*[\w.]+(?:\s*\/\s*100)?\s*\)/.test(line))
      return line;
    const m = /\b([A-Za-z_]\w*)\s*[-+]\s*([A-Za-z_]\w*)\s*\*\s*[\w.]+\s*\/\s*100\b/.exec(line);
    if (m && m[1] !== m[2]) return line;
  }
  return null;
}

const unweightedMean =
  /\bsum\(\s*(\w+)\s*\)\s*(?:\/|,)\s*len\(\s*\1\s*\)|\b(?:statistics\.)?(?:mean|fmean)\(\s*\w+\s*\)/;

function weighted(view: CodeView): string | null {
  return lineWith(view, /\bzip\s*\(|\bsum\([^)]*\w\s*\*\s*\w/);
}

const squaredDraw = /[\w)]\s*\*\*\s*[2-9]\b|\b(\w+)\s*\*\s*\1\b(?!\s*\()/;
const reducedDraw =
  /\/\s*\(\s*[\w.]+\s*-\s*1\s*\)|\(\s*[\w.]+\s*-\s*1\s*\)\s*\/|\(\s*[\w.]+\s*-\s*1\s*,\s*[\w.]+\s*-\s*1\s*\)|\bcomb\s*\(/;

// --- the idioms -----------------------------------------------------------------------------------------------

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
      "add one to the date difference, `(end - start).days + 1`, so the first and the last day both count",
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
      "count every crossing of the line through the two endpoints; where it happens does not matter",
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

const realRootsOnly: Idiom = {
  id: "real-roots",
  contrast(loser, winner, problem) {
    if (!/\broots?\b|\bsolutions?\b|\bzeros?\b/i.test(problem)) return null;
    const good = comparisonToZero(winner.text);
    if (!good || comparisonToZero(loser.text)) return null;
    return {
      loser: lineWith(loser, /cmath|\broots\(|len\(/) ?? lineWith(loser, /\+=/) ?? "",
      winner: lineWith(winner, zeroComparison) ?? good,
    };
  },
  suspect(code, problem) {
    if (!/\breal\b/i.test(problem) || !/\broots?\b|\bsolutions?\b/i.test(problem)) return null;
    if (comparisonToZero(code.text)) return null;
    const counted = lineWith(code, /cmath|len\(|\+=\s*2\b/);
    return counted ? { loser: counted } : null;
  },
  flag: (m) =>
    `\`${m.loser}\` counts roots without looking at the sign of the discriminant, so complex roots were counted as real ones`,
  advice: {
    situations: ["counting the real roots of quadratic equations"],
    actions: [
      "look at the sign of the discriminant `b^2 - 4ac` first: a negative one means no real root",
      "count roots only after checking `D >= 0`; a negative discriminant gives complex roots, not real ones",
      "test the discriminant before counting and add nothing when it is below zero",
    ],
    avoid: [
      "counting whatever `cmath` returns",
      "giving every quadratic two roots",
      "counting complex roots as solutions",
    ],
    because: [
      "`cmath.sqrt` of a negative number is imaginary, so those roots are complex",
      "a negative discriminant has no real square root",
    ],
    misguided: [
      "count every root a solver returns, complex ones included",
      "give each quadratic two roots without computing the discriminant",
    ],
    cues: {
      topic: /\broots?\b|\bdiscriminant\b|\bquadratic|\bb\^?2 ?- ?4ac\b/i,
      right:
        /\bsign\b|\bnegative\b|\bno real\b|\bcheck|\btest|\bonly real\b|\bnot real\b|D >= 0|\bbelow zero\b/i,
      wrong:
        /\bcomplex ones included\b|\bevery root\b|\ball (?:the )?roots\b|\btwo roots without\b|\bwithout (?:computing|checking) the discriminant\b|\bskip/i,
    },
  },
};

const distinctRoots: Idiom = {
  id: "distinct-roots",
  contrast(loser, winner, problem) {
    if (!/\bdistinct\b|\bdifferent\b/i.test(problem)) return null;
    const good = lineWith(winner, /==\s*0(?![\w.])/);
    const dedupes = (v: CodeView) => /\bset\(|=\s*\{[^}:]*,[^}:]*\}/.test(v.text);
    if (!good || lineWith(loser, /==\s*0(?![\w.])/) || dedupes(loser)) return null;
    const bad = lineWith(loser, />=\s*0(?![\w.])/) ?? lineWith(loser, /\+=\s*2\b/);
    return bad ? { loser: bad, winner: good } : null;
  },
  suspect(code, problem) {
    if (!/\bdistinct\b/i.test(problem) || !/\broots?\b/i.test(problem)) return null;
    if (/==\s*0(?![\w.])/.test(code.text) || /\bset\(|=\s*\{[^}:]*,[^}:]*\}/.test(code.text)) return null;
    const bad = lineWith(code, />=\s*0(?![\w.])/);
    return bad && lineWith(code, /\+=\s*2\b/) ? { loser: bad } : null;
  },
  flag: (m) =>
    `\`${m.loser}\` adds two roots when the discriminant is zero, but a zero discriminant gives one distinct root`,
  advice: {
    situations: ["counting the distinct roots of quadratics"],
    actions: [
      "count a root once when the discriminant is exactly zero (`D == 0` gives one distinct root)",
      "handle `D == 0` on its own and add one, since both roots coincide",
      "treat a zero discriminant as a single repeated root and count it once",
    ],
    avoid: ["adding two roots when the discriminant is zero", "counting a repeated root twice"],
    because: ["a zero discriminant makes the two roots equal", "equal roots are one distinct value"],
    misguided: [
      "count a repeated root twice, once for each factor",
      "add two roots whenever the discriminant is not negative",
    ],
    cues: {
      topic:
        /\brepeated\b|\bdouble\b|\bdistinct\b|\bcoincid|\bD == 0\b|\bzero discriminant\b|\bdiscriminant (?:is )?(?:exactly )?zero\b/i,
      right: /\bonce\b|\bone distinct\b|\bsingle\b|\bD == 0\b/i,
      wrong: /\btwice\b|\bmultiplicity\b|\btwo roots whenever\b|\bonce for each\b/i,
    },
  },
};

const lateRounding: Idiom = {
  id: "late-rounding",
  contrast(loser, winner) {
    const bad = earlyRounding(loser);
    return bad && !earlyRounding(winner)
      ? { loser: bad, winner: winner.lines.find((l) => /^print\s*\(/.test(l)) ?? winner.lines.at(-1) ?? "" }
      : null;
  },
  suspect(code, problem) {
    if (!/\bround(?:ed|ing)?\b|\bnearest\b/i.test(problem)) return null;
    const bad = earlyRounding(code);
    return bad ? { loser: bad } : null;
  },
  flag: (m) => `\`${m.loser}\` rounds an intermediate value, and later steps build on the rounded number`,
  advice: {
    situations: ["computing an amount through several steps and rounding the result"],
    actions: [
      "keep full precision through every step and round only the final value",
      "carry exact values (e.g. `Fraction`) through the chain and round once at the end",
      "round a single time, on the final result, never in between",
    ],
    avoid: ["rounding the intermediate amounts", "rounding after each step"],
    because: [
      "rounding in between shifts the final result",
      "each early rounding adds an error that the later steps carry along",
    ],
    misguided: [
      "round the amount to the cent after each step so every figure stays tidy",
      "round every intermediate value before using it again",
    ],
    cues: {
      topic: /\bround|\bprecision\b|\bcents?\b|\bintermediate\b/i,
      right:
        /\bonly (?:the )?final\b|\bonce\b|\bat the end\b|\bfull precision\b|\bexact\b|\bnever in between\b/i,
      wrong: /\bafter (?:each|every) step\b|\bevery intermediate\b|\bround (?:each|every)\b|\bstays? tidy\b/i,
    },
  },
};

const chainedPercent: Idiom = {
  id: "chained-percent",
  contrast(loser, winner) {
    const bad = netPercent(loser);
    if (!bad || netPercent(winner)) return null;
    const good = winner.lines.filter((l) => /\/\s*100\b|\*\s*(?:0?\.\d+|1\.\d+)\b/.test(l));
    return good.length > 0 ? { loser: bad, winner: good.at(-1)! } : null;
  },
  suspect(code, problem) {
    const percents = problem.match(/\d+(?:\.\d+)?\s*(?:%|percent)/g) ?? [];
    if (percents.length < 2 || !/\bthen\b|\blater\b|\bafter\b|\bfollowed\b/i.test(problem)) return null;
    const bad = netPercent(code);
    return bad ? { loser: bad } : null;
  },
  flag: (m) =>
    `\`${m.loser}\` merges the two percentage changes into one change of the original value, but the second change applies to the already changed value`,
  advice: {
    situations: ["applying one percentage change after another"],
    actions: [
      "apply the changes one after the other: multiply by `(1 + a/100)`, then multiply that result by `(1 - b/100)`",
      "take the second percentage of the value after the first change, not of the starting value",
      "chain the factors, `x * (100 + a) / 100 * (100 - b) / 100`, instead of netting the percentages",
    ],
    avoid: [
      "adding the percentages into one net change",
      "taking the second percentage of the original value",
    ],
    because: ["the second change acts on the new value", "percentage changes multiply, they do not add"],
    misguided: [
      "add the percentages into one net change and apply it to the original value",
      "take both percentages of the starting value and combine them",
    ],
    cues: {
      topic: /\bpercent|%|\bsuccessive\b|\bincrease\b|\bdecrease\b/i,
      right:
        /\bone after the other\b|\bchain|\bmultiply|\bnew value\b|\bafter the first\b|\bnot of the (?:starting|original)\b/i,
      wrong:
        /\bnet change\b|\badd the percent|\bof the (?:starting|original) value\b(?!.*\bnot\b)|\bcombine them\b/i,
    },
  },
};

const floorModulo: Idiom = {
  id: "floor-modulo",
  contrast(loser, winner) {
    const bad = lineWith(loser, /\bfmod\s*\(|\bmath\.remainder\s*\(/);
    const good = lineWith(winner, /[\w)\]]\s+%\s+[\w(]|\bdivmod\s*\(|\bpow\s*\(/);
    return bad && good ? { loser: bad, winner: good } : null;
  },
  suspect(code, problem) {
    const bad = lineWith(code, /\bfmod\s*\(|\bmath\.remainder\s*\(/);
    if (!bad) return null;
    const negative =
      (code.printed ?? "").trim().startsWith("-") ||
      /\s-\s|(?:^|[\s(])-\d|\bnegative\b/i.test(problem) ||
      /\bfmod\s*\(\s*-/.test(code.text);
    return negative ? { loser: bad } : null;
  },
  flag: (m) =>
    `\`${m.loser}\` keeps the sign of the negative dividend, so the remainder came out negative; Python's % gives the residue in 0..m-1`,
  advice: {
    situations: ["taking the remainder of a negative number"],
    actions: [
      "use Python's `%` operator, which returns a residue between 0 and m - 1 even for negative values",
      "reduce with `value % m` so the result is never negative",
      "take `x % m`; for a negative x it still lands in `0..m-1`",
    ],
    avoid: ["using `math.fmod`", "keeping the sign of the dividend"],
    because: [
      "`math.fmod(-7, 5)` is -2 while `-7 % 5` is 3",
      "`math.fmod` truncates toward zero and keeps the dividend's sign",
    ],
    misguided: [
      "use `math.fmod` so the remainder keeps the sign of the number",
      "let a negative number give a negative remainder, as `math.fmod` does",
    ],
    cues: {
      topic: /\bmod(?:ulo|ular)?\b|\bremainder\b|\bresidue\b|%|\bfmod\b/i,
      right: /\bnever negative\b|\bnonnegative\b|\bnon-negative\b|0 and m - 1|0\.\.m-1|`%`|x % m|value % m/i,
      wrong: /\bkeeps? the sign\b|\bnegative remainder\b|\bmath\.fmod\b(?![^.]*\binstead\b)/i,
    },
  },
};

const weightedMean: Idiom = {
  id: "weighted-mean",
  contrast(loser, winner) {
    const bad = lineWith(loser, unweightedMean);
    const good = weighted(winner);
    return bad && good && !weighted(loser) ? { loser: bad, winner: good } : null;
  },
  suspect(code, problem) {
    if (
      !/\bmean\b|\baverage\b/i.test(problem) ||
      !/\b\d+\s+(?:students|people|members|employees|items|players|pupils)\b/i.test(problem)
    )
      return null;
    const bad = lineWith(code, unweightedMean);
    return bad && !weighted(code) ? { loser: bad } : null;
  },
  flag: (m) => `\`${m.loser}\` averages the group means as if every group had the same size`,
  advice: {
    situations: ["combining the averages of groups of different sizes"],
    actions: [
      "weight each group's mean by its size: divide `sum(n * m)` by the total count",
      "add up size times mean for every group and divide by the number of members overall",
      "use the sizes as weights, `sum(n_i * m_i) / sum(n_i)`",
    ],
    avoid: ["averaging the group means directly", "ignoring the group sizes"],
    because: [
      "larger groups pull the overall mean further",
      "a plain mean of means treats every group as equal",
    ],
    misguided: [
      "take the plain average of the group means; the group sizes do not matter",
      "average the means directly, one vote per group",
    ],
    cues: {
      topic: /\bmeans?\b|\baverages?\b/i,
      right: /\bweight|\bsizes? as\b|\bsize times\b|sum\(n|\btotal count\b|\bby (?:its|their) sizes?\b/i,
      wrong:
        /\bplain average\b|\bsizes? (?:do|does) not matter\b|\bdirectly\b|\bone vote per\b|\bsimple average\b/i,
    },
  },
};

const unorderedChoice: Idiom = {
  id: "unordered-choice",
  contrast(loser, winner) {
    const bad = lineWith(loser, /\bperm\s*\(|\bpermutations\s*\(/);
    const good = lineWith(winner, /\bcomb\s*\(|\bcombinations\s*\(/);
    return bad && good ? { loser: bad, winner: good } : null;
  },
  suspect(code, problem) {
    if (
      !/\bcommittee\b|\bchoose\b|\bselect|\bsubset\b|\bteam\b|\border (?:does not|doesn't) matter\b|\bhand\b/i.test(
        problem,
      )
    )
      return null;
    const bad = lineWith(code, /\bperm\s*\(|\bpermutations\s*\(/);
    return bad ? { loser: bad } : null;
  },
  flag: (m) =>
    `\`${m.loser}\` counts ordered arrangements, but the problem chooses a group in which order does not matter`,
  advice: {
    situations: ["counting ways to choose a group of people or items"],
    actions: [
      "count selections with `math.comb(n, k)`, since reordering the same members gives the same group",
      "use `comb(n, k)` for an unordered choice and keep `perm` for ordered arrangements",
      "divide out the orderings: an unordered pick of k from n is `math.comb(n, k)`",
    ],
    avoid: ["using `math.perm(n, k)`", "counting each ordering of the same group"],
    because: ["`perm` counts every ordering of the same members separately", "a group has no order"],
    misguided: [
      "count with `math.perm(n, k)`, since every pick happens one after another",
      "treat each ordering of the chosen members as a different outcome",
    ],
    cues: {
      topic: /\bcomb\b|\bperm\b|\bchoose\b|\bselect|\border\b|\bcombination|\bpermutation|\bcommittee/i,
      right: /\bcomb\(|\bunordered\b|\border does not matter\b|\bdivide out\b/i,
      wrong:
        /\bperm\(n, k\)(?![^.]*\bordered arrangements\b)|\beach ordering\b.*\bdifferent\b|\bone after another\b/i,
    },
  },
};

const orderedArrangement: Idiom = {
  id: "ordered-arrangement",
  contrast(loser, winner) {
    const bad = lineWith(loser, /\bcomb\s*\(|\bcombinations\s*\(/);
    const good = lineWith(winner, /\bperm\s*\(|\bpermutations\s*\(|\bfactorial\s*\(/);
    return bad && good ? { loser: bad, winner: good } : null;
  },
  suspect(code, problem) {
    if (
      !/\barrange|\bin a row\b|\border matters\b|\branked\b|\bfirst,? second\b|\bpodium\b|\bline up\b/i.test(
        problem,
      )
    )
      return null;
    const bad = lineWith(code, /\bcomb\s*\(|\bcombinations\s*\(/);
    return bad ? { loser: bad } : null;
  },
  flag: (m) => `\`${m.loser}\` counts unordered groups, but the problem's positions make order matter`,
  advice: {
    situations: ["counting the ways to fill distinct positions"],
    actions: [
      "count ordered arrangements with `math.perm(n, k)`",
      "use `perm(n, k)` when swapping two chosen items gives a different outcome",
    ],
    avoid: ["using `math.comb(n, k)`", "treating the arrangement as an unordered group"],
    because: ["`comb` counts each set of items once, whatever its order"],
    misguided: ["count with `math.comb(n, k)`; the order of the picks does not matter"],
    cues: {
      topic: /\bcomb\b|\bperm\b|\barrange|\border\b|\bpermutation|\bcombination/i,
      right: /\bperm\(|\border(?:ed)? (?:matters|arrangements)\b|\bdifferent outcome\b/i,
      wrong: /\bcomb\(n, k\)(?![^.]*\bunordered\b)|\border of the picks does not matter\b/i,
    },
  },
};

const drawsWithoutReplacement: Idiom = {
  id: "draws-without-replacement",
  contrast(loser, winner) {
    const bad = lineWith(loser, squaredDraw);
    const good = lineWith(winner, reducedDraw);
    return bad && good && !reducedDraw.test(loser.text) ? { loser: bad, winner: good } : null;
  },
  suspect(code, problem) {
    if (
      !/\bwithout replacement\b|\bnot replaced\b|\bwithout (?:putting|returning)\b|\bat the same time\b|\bat once\b/i.test(
        problem,
      )
    )
      return null;
    const bad = lineWith(code, squaredDraw);
    return bad && !reducedDraw.test(code.text) ? { loser: bad } : null;
  },
  flag: (m) =>
    `\`${m.loser}\` treats the draws as independent, as if each item were put back before the next draw`,
  advice: {
    situations: ["drawing several items without putting them back"],
    actions: [
      "lower both counts after each draw: the chance of two is `r/n * (r-1)/(n-1)`",
      "update the numerator and the denominator after every draw instead of squaring one probability",
      "multiply `r/n` by `(r-1)/(n-1)` for the second draw",
    ],
    avoid: ["squaring the single-draw probability", "treating the draws as independent"],
    because: [
      "each draw removes an item, so the second chance is different",
      "no item goes back before the next draw",
    ],
    misguided: [
      "square the one-draw probability `(r/n)**2`, the draws being independent",
      "treat every draw as independent with the same chance",
    ],
    cues: {
      topic: /\bdraw|\breplacement\b|\bput(?:ting)? (?:them |it )?back\b|\bwithout replac/i,
      right:
        /\(r-1\)\/\(n-1\)|\blower both counts\b|\bupdate the numerator\b|\bremoves?\b|\bwithout replacement\b/i,
      wrong: /\bsquare\b|\*\*2|\bindependent\b(?![^.]*\binstead\b)/i,
    },
  },
};

const exactDivision: Idiom = {
  id: "exact-division",
  contrast(loser, winner) {
    const bad = lineWith(loser, /[\w)\]]\s*\/\/\s*[\w(]/);
    if (!bad || /\/\//.test(winner.text)) return null;
    const good = lineWith(winner, /[\w)\]]\s*\/\s*[\w(]|\bFraction\s*\(/);
    return good ? { loser: bad, winner: good } : null;
  },
  suspect: () => null,
  flag: (m) => `\`${m.loser}\` uses floor division and drops the fractional part`,
  advice: {
    situations: ["dividing quantities that need not divide evenly"],
    actions: [
      "divide exactly with `/` or `Fraction` and round only if the question asks",
      "keep exact quotients, e.g. `Fraction(a, b)`",
    ],
    avoid: ["using `//`", "flooring the quotient"],
    because: ["`//` throws away the fractional part"],
    misguided: ["use `//` so every quotient stays a whole number"],
    cues: {
      topic: /\bdivi|\/\/|\bquotient\b/i,
      right: /\bexact|\bFraction\b/i,
      wrong: /\/\/(?![^.]*\bnot\b)|\bwhole number\b/i,
    },
  },
};

/** Every idiom the critic knows, most specific first. */
export const pythonIdioms: readonly Idiom[] = [
  inclusiveDays,
  inclusiveRange,
  boundedParameter,
  realRootsOnly,
  distinctRoots,
  lateRounding,
  chainedPercent,
  floorModulo,
  weightedMean,
  unorderedChoice,
  orderedArrangement,
  drawsWithoutReplacement,
  exactDivision,
];

export function idiomById(id: string): Idiom | undefined {
  return pythonIdioms.find((idiom) => idiom.id === id);
}
