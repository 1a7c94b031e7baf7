import { randomInt } from "../hash.js";
import { boundedSegment, discriminant, rangeEndpoints, repeatedRoot } from "../pitfalls/math-pitfalls.js";
import { combinedMean, negativeModular, percentChange } from "./math-arithmetic-families.js";
import type { MathFamily } from "./math-family.js";

const int = String.raw`(-?\d+)`;

// --- counting multiples in a closed range (pitfall: exclusive endpoints) ----------------------------------------

interface RangeParams {
  k: number;
  a: number;
  b: number;
}

export const rangeMultiples: MathFamily<RangeParams> = {
  id: "range-multiples",
  pitfalls: [rangeEndpoints],
  generate(random) {
    const k = randomInt(random, 3, 13);
    const a = k * randomInt(random, 2, 30);
    return { k, a, b: a + k * randomInt(random, 5, 40) };
  },
  question: ({ k, a, b }, variant) =>
    variant % 2 === 0
      ? `How many multiples of ${k} lie between ${a} and ${b}, inclusive?`
      : `How many integers from ${a} to ${b}, including both ${a} and ${b}, are divisible by ${k}?`,
  parse(question) {
    const m =
      new RegExp(`^How many multiples of ${int} lie between ${int} and ${int}, inclusive\\?$`).exec(
        question,
      ) ??
      new RegExp(
        `^How many integers from ${int} to ${int}, including both -?\\d+ and -?\\d+, are divisible by ${int}\\?$`,
      ).exec(question);
    if (!m) return null;
    return question.startsWith("How many multiples")
      ? { k: Number(m[1]), a: Number(m[2]), b: Number(m[3]) }
      : { a: Number(m[1]), b: Number(m[2]), k: Number(m[3]) };
  },
  code({ k, a, b }, fallen) {
    const range = fallen.has(rangeEndpoints.id) ? `range(${a} + 1, ${b})` : `range(${a}, ${b} + 1)`;
    return `count = sum(1 for n in ${range} if n % ${k} == 0)\nprint(count)\n`;
  },
  evaluate({ k, a, b }, fallen) {
    const inclusive = Math.floor(b / k) - Math.ceil(a / k) + 1;
    return String(
      fallen.has(rangeEndpoints.id) ? inclusive - (a % k === 0 ? 1 : 0) - (b % k === 0 ? 1 : 0) : inclusive,
    );
  },
  describe: ({ k, a, b }) => `I will count the multiples of ${k} from ${a} to ${b}.`,
};

// --- days in an inclusive date span (pitfall: exclusive endpoints) ----------------------------------------------

const months = [
  ["January", 31],
  ["February", 28],
  ["March", 31],
  ["April", 30],
  ["May", 31],
  ["June", 30],
  ["July", 31],
  ["August", 31],
  ["September", 30],
  ["October", 31],
  ["November", 30],
  ["December", 31],
] as const;

interface DaysParams {
  m1: number;
  d1: number;
  m2: number;
  d2: number;
  event: number;
}

const events = [
  "A festival runs",
  "A museum exhibition is open",
  "A conference is held every day",
  "A sale lasts",
];

function dayOfYear(month: number, day: number): number {
  let total = day;
  for (let i = 0; i < month - 1; i++) total += months[i]![1];
  return total;
}

function dateFromDay(dayNumber: number): [number, number] {
  let rest = dayNumber;
  for (let i = 0; i < 12; i++) {
    const length = months[i]![1];
    if (rest <= length) return [i + 1, rest];
    rest -= length;
  }
  return [12, 31];
}

const monthPattern = months.map(([name]) => name).join("|");

export const inclusiveDays: MathFamily<DaysParams> = {
  id: "inclusive-days",
  pitfalls: [rangeEndpoints],
  generate(random) {
    const start = randomInt(random, 1, 300);
    const length = randomInt(random, 5, 60);
    const [m1, d1] = dateFromDay(start);
    const [m2, d2] = dateFromDay(Math.min(365, start + length));
    return { m1, d1, m2, d2, event: randomInt(random, 0, events.length - 1) };
  },
  question: ({ m1, d1, m2, d2, event }, variant) => {
    const from = `${months[m1 - 1]![0]} ${d1}`;
    const to = `${months[m2 - 1]![0]} ${d2}`;
    return variant % 2 === 0
      ? `${events[event]} from ${from} to ${to}, 2023, with both the first and the last day included. How many days is that?`
      : `${events[event]} from ${from} through ${to}, 2023, inclusive. For how many days does it run?`;
  },
  parse(question) {
    const m = new RegExp(
      `^(${events.join("|")}) from (${monthPattern}) (\\d+) (?:to|through) (${monthPattern}) (\\d+), 2023, (?:with both the first and the last day included\\. How many days is that|inclusive\\. For how many days does it run)\\?$`,
    ).exec(question);
    if (!m) return null;
    const month = (name: string) => months.findIndex(([n]) => n === name) + 1;
    return {
      event: events.indexOf(m[1]!),
      m1: month(m[2]!),
      d1: Number(m[3]),
      m2: month(m[4]!),
      d2: Number(m[5]),
    };
  },
  code({ m1, d1, m2, d2 }, fallen) {
    const adjust = fallen.has(rangeEndpoints.id) ? " - 1" : " + 1";
    return `from datetime import date\n\nspan = (date(2023, ${m2}, ${d2}) - date(2023, ${m1}, ${d1})).days${adjust}\nprint(span)\n`;
  },
  evaluate({ m1, d1, m2, d2 }, fallen) {
    const difference = dayOfYear(m2, d2) - dayOfYear(m1, d1);
    return String(fallen.has(rangeEndpoints.id) ? difference - 1 : difference + 1);
  },
  describe: ({ m1, d1, m2, d2 }) =>
    `I will count the days from ${months[m1 - 1]![0]} ${d1} to ${months[m2 - 1]![0]} ${d2}.`,
};

// --- lines crossing a bounded segment (pitfall: points on the extension) -----------------------------------------

interface SegmentParams {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  cs: number[];
}

export const segmentCrossings: MathFamily<SegmentParams> = {
  id: "segment-crossings",
  pitfalls: [boundedSegment],
  generate(random) {
    for (;;) {
      const [x1, y1, x2, y2] = [0, 0, 0, 0].map(() => randomInt(random, -9, 9)) as [
        number,
        number,
        number,
        number,
      ];
      const s1 = x1 + y1;
      const s2 = x2 + y2;
      if (Math.abs(s2 - s1) < 3) continue;
      const low = Math.min(s1, s2);
      const high = Math.max(s1, s2);
      const cs = new Set<number>();
      const count = randomInt(random, 5, 6);
      while (cs.size < count) {
        const c = randomInt(random, low - 7, high + 7);
        if (c !== s1 && c !== s2) cs.add(c);
      }
      const values = [...cs];
      const inside = values.filter((c) => c > low && c < high).length;
      if (inside >= 1 && values.length - inside >= 2) return { x1, y1, x2, y2, cs: values };
    }
  },
  question: ({ x1, y1, x2, y2, cs }, variant) =>
    variant % 2 === 0
      ? `Segment PQ has endpoints P(${x1}, ${y1}) and Q(${x2}, ${y2}). How many of the lines x + y = c, for c in {${cs.join(", ")}}, intersect the segment PQ?`
      : `Let P = (${x1}, ${y1}) and Q = (${x2}, ${y2}). For how many values c in {${cs.join(", ")}} does the line x + y = c meet the segment PQ?`,
  parse(question) {
    const m =
      new RegExp(
        `^Segment PQ has endpoints P\\(${int}, ${int}\\) and Q\\(${int}, ${int}\\)\\. How many of the lines x \\+ y = c, for c in \\{([-\\d, ]+)\\}, intersect the segment PQ\\?$`,
      ).exec(question) ??
      new RegExp(
        `^Let P = \\(${int}, ${int}\\) and Q = \\(${int}, ${int}\\)\\. For how many values c in \\{([-\\d, ]+)\\} does the line x \\+ y = c meet the segment PQ\\?$`,
      ).exec(question);
    if (!m) return null;
    return {
      x1: Number(m[1]),
      y1: Number(m[2]),
      x2: Number(m[3]),
      y2: Number(m[4]),
      cs: m[5]!.split(",").map((c) => Number(c.trim())),
    };
  },
  code({ x1, y1, x2, y2, cs }, fallen) {
    const check = fallen.has(boundedSegment.id)
      ? "    if s2 != s1:  # the line through P and Q meets x + y = c\n        count += 1\n"
      : "    t = Fraction(c - s1, s2 - s1)  # position along P -> Q\n    if 0 <= t <= 1:\n        count += 1\n";
    return (
      `from fractions import Fraction\n\n` +
      `P = (${x1}, ${y1})\nQ = (${x2}, ${y2})\ns1 = P[0] + P[1]\ns2 = Q[0] + Q[1]\ncount = 0\n` +
      `for c in [${cs.join(", ")}]:\n${check}print(count)\n`
    );
  },
  evaluate({ x1, y1, x2, y2, cs }, fallen) {
    const s1 = x1 + y1;
    const s2 = x2 + y2;
    if (fallen.has(boundedSegment.id)) return String(s1 === s2 ? 0 : cs.length);
    return String(cs.filter((c) => c >= Math.min(s1, s2) && c <= Math.max(s1, s2)).length);
  },
  describe: ({ cs }) => `I will test each of the ${cs.length} lines against the segment PQ.`,
};

// --- real roots of several quadratics (pitfalls: complex roots, double roots) ------------------------------------

interface QuadraticParams {
  equations: [number, number][];
}

function formatQuadratic(p: number, q: number): string {
  const linear = Math.abs(p) === 1 ? "x" : `${Math.abs(p)}x`;
  return `x^2 ${p < 0 ? "-" : "+"} ${linear} ${q < 0 ? "-" : "+"} ${Math.abs(q)} = 0`;
}

function realRootCount(p: number, q: number, fallen: ReadonlySet<string>): number {
  const d = p * p - 4 * q;
  const countsComplex = fallen.has(discriminant.id);
  const countsDouble = fallen.has(repeatedRoot.id);
  if (countsComplex && countsDouble) return 2;
  if (countsComplex) return d === 0 ? 1 : 2;
  if (countsDouble) return d >= 0 ? 2 : 0;
  return d > 0 ? 2 : d === 0 ? 1 : 0;
}

export const quadraticRoots: MathFamily<QuadraticParams> = {
  id: "quadratic-roots",
  pitfalls: [discriminant, repeatedRoot],
  requiredActive: [discriminant.id],
  generate(random) {
    for (;;) {
      const count = randomInt(random, 4, 5);
      const equations: [number, number][] = [];
      const withDouble = random() < 0.6;
      for (let i = 0; i < count; i++) {
        if (withDouble && i === 0) {
          const half = randomInt(random, 1, 5) * (random() < 0.5 ? -1 : 1);
          equations.push([2 * half, half * half]);
          continue;
        }
        const p = randomInt(random, -9, 9);
        const q = randomInt(random, -12, 12);
        if (p !== 0 && q !== 0) equations.push([p, q]);
        else i--;
      }
      // Shuffle so the double root is not always first.
      for (let i = equations.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [equations[i], equations[j]] = [equations[j]!, equations[i]!];
      }
      const discriminants = equations.map(([p, q]) => p * p - 4 * q);
      if (discriminants.some((d) => d < 0) && discriminants.some((d) => d > 0)) return { equations };
    }
  },
  question({ equations }, variant) {
    const list = equations.map(([p, q]) => formatQuadratic(p, q));
    const joined = `${list.slice(0, -1).join(", ")} and ${list.at(-1)}`;
    return variant % 2 === 0
      ? `Consider the equations ${joined}. Adding up the number of distinct real roots of each equation, what is the total?`
      : `For each of the equations ${joined}, count its distinct real roots. What is the sum of these counts?`;
  },
  parse(question) {
    if (
      !/^(Consider the equations .+\. Adding up the number of distinct real roots of each equation, what is the total\?|For each of the equations .+, count its distinct real roots\. What is the sum of these counts\?)$/.test(
        question,
      )
    )
      return null;
    const equations: [number, number][] = [];
    for (const m of question.matchAll(/x\^2 ([+-]) (\d*)x ([+-]) (\d+) = 0/g)) {
      const p = (m[1] === "-" ? -1 : 1) * (m[2] === "" ? 1 : Number(m[2]));
      const q = (m[3] === "-" ? -1 : 1) * Number(m[4]);
      equations.push([p, q]);
    }
    return equations.length >= 2 ? { equations } : null;
  },
  code({ equations }, fallen) {
    const countsComplex = fallen.has(discriminant.id);
    const countsDouble = fallen.has(repeatedRoot.id);
    let body: string;
    if (countsComplex && countsDouble) body = "    total += 2  # a quadratic has two roots\n";
    else if (countsComplex)
      body = "    roots = {(-p + cmath.sqrt(D)) / 2, (-p - cmath.sqrt(D)) / 2}\n    total += len(roots)\n";
    else if (countsDouble) body = "    if D >= 0:\n        total += 2\n";
    else body = "    if D > 0:\n        total += 2\n    elif D == 0:\n        total += 1\n";
    return (
      `import cmath\n\nequations = [${equations.map(([p, q]) => `(${p}, ${q})`).join(", ")}]  # x^2 + p x + q = 0\n` +
      `total = 0\nfor p, q in equations:\n    D = p * p - 4 * q\n${body}print(total)\n`
    );
  },
  evaluate: ({ equations }, fallen) =>
    String(equations.reduce((sum, [p, q]) => sum + realRootCount(p, q, fallen), 0)),
  describe: ({ equations }) => `I will go through the ${equations.length} equations one by one.`,
};

export const mathFamilies: readonly MathFamily[] = [
  rangeMultiples,
  inclusiveDays,
  segmentCrossings,
  quadraticRoots,
  percentChange,
  negativeModular,
  combinedMean,
];
