import { randomInt } from "../hash.js";
import {
  boundedSegment,
  discriminant,
  intermediateRounding,
  negativeModulo,
  rangeEndpoints,
  repeatedRoot,
  successivePercentBase,
  weightedMean,
} from "../pitfalls/math-pitfalls.js";
import { fractionText, type MathFamily, roundHalfUp } from "./math-family.js";

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

// --- successive percentage changes with rounding (pitfalls: intermediate rounding, wrong base) ------------------

interface PercentParams {
  cents: number;
  up: number;
  down: number;
  item: number;
}

const items = ["jacket", "lamp", "bicycle", "concert ticket", "backpack", "coffee grinder"];

function finalCents({ cents, up, down }: PercentParams, fallen: ReadonlySet<string>): bigint {
  const p = BigInt(cents);
  const a = BigInt(up);
  const b = BigInt(down);
  const roundsEarly = fallen.has(intermediateRounding.id);
  const netChange = fallen.has(successivePercentBase.id);
  if (roundsEarly && netChange) {
    const raised = roundHalfUp(p * (100n + a), 100n);
    return roundHalfUp(raised * 100n - p * b, 100n);
  }
  if (roundsEarly) return roundHalfUp(roundHalfUp(p * (100n + a), 100n) * (100n - b), 100n);
  if (netChange) return roundHalfUp(p * (100n + a - b), 100n);
  return roundHalfUp(p * (100n + a) * (100n - b), 10000n);
}

export const percentChange: MathFamily<PercentParams> = {
  id: "percent-change",
  pitfalls: [intermediateRounding, successivePercentBase],
  generate(random) {
    return {
      cents: randomInt(random, 1001, 49999),
      up: randomInt(random, 5, 45),
      down: randomInt(random, 5, 45),
      item: randomInt(random, 0, items.length - 1),
    };
  },
  question({ cents, up, down, item }, variant) {
    const price = `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
    return variant % 2 === 0
      ? `A ${items[item]} costs ${price}. Its price rises by ${up}% and then falls by ${down}%. What is the final price in cents, rounded to the nearest cent?`
      : `The price of a ${items[item]} is ${price}. It is increased by ${up}%, and later decreased by ${down}%. What is the new price, in cents, rounded to the nearest cent?`;
  },
  parse(question) {
    const m =
      new RegExp(
        `^A (${items.join("|")}) costs \\$(\\d+)\\.(\\d\\d)\\. Its price rises by (\\d+)% and then falls by (\\d+)%\\. What is the final price in cents, rounded to the nearest cent\\?$`,
      ).exec(question) ??
      new RegExp(
        `^The price of a (${items.join("|")}) is \\$(\\d+)\\.(\\d\\d)\\. It is increased by (\\d+)%, and later decreased by (\\d+)%\\. What is the new price, in cents, rounded to the nearest cent\\?$`,
      ).exec(question);
    if (!m) return null;
    return {
      item: items.indexOf(m[1]!),
      cents: Number(m[2]) * 100 + Number(m[3]),
      up: Number(m[4]),
      down: Number(m[5]),
    };
  },
  code({ cents, up, down }, fallen) {
    const roundsEarly = fallen.has(intermediateRounding.id);
    const netChange = fallen.has(successivePercentBase.id);
    const lines = [
      "from fractions import Fraction",
      "import math",
      "",
      "def to_cent(x):",
      "    return math.floor(x + Fraction(1, 2))",
      "",
    ];
    lines.push(`price = Fraction(${cents})  # in cents`);
    if (netChange) {
      if (roundsEarly) {
        lines.push(`raised = to_cent(price * ${100 + up} / 100)`);
        lines.push(`final = raised - price * ${down} / 100  # net change on the original price`);
      } else lines.push(`final = price * (100 + ${up} - ${down}) / 100  # net change on the original price`);
    } else {
      lines.push(`raised = price * ${100 + up} / 100`);
      if (roundsEarly) lines.push("raised = to_cent(raised)  # round to the cent");
      lines.push(`final = raised * ${100 - down} / 100`);
    }
    lines.push("print(to_cent(final))");
    return `${lines.join("\n")}\n`;
  },
  evaluate: (params, fallen) => String(finalCents(params, fallen)),
  describe: ({ up, down }) => `I will apply the +${up}% and -${down}% changes to the price in cents.`,
};

// --- modular arithmetic with a negative number (pitfall: sign convention) ----------------------------------------

interface ModuloParams {
  a: number;
  b: number;
  c: number;
  m: number;
}

export const negativeModular: MathFamily<ModuloParams> = {
  id: "negative-modular",
  pitfalls: [negativeModulo],
  generate(random) {
    for (;;) {
      const a = randomInt(random, 2, 60);
      const b = randomInt(random, 3, 40);
      const c = randomInt(random, 3, 40);
      const m = randomInt(random, 5, 19);
      const value = a - b * c;
      if (value < 0 && value % m !== 0) return { a, b, c, m };
    }
  },
  question: ({ a, b, c, m }, variant) =>
    variant % 2 === 0
      ? `Compute (${a} - ${b} * ${c}) mod ${m}.`
      : `What is the remainder when ${a} - ${b} * ${c} is divided by ${m}?`,
  parse(question) {
    const m =
      new RegExp(`^Compute \\(${int} - ${int} \\* ${int}\\) mod ${int}\\.$`).exec(question) ??
      new RegExp(`^What is the remainder when ${int} - ${int} \\* ${int} is divided by ${int}\\?$`).exec(
        question,
      );
    if (!m) return null;
    return { a: Number(m[1]), b: Number(m[2]), c: Number(m[3]), m: Number(m[4]) };
  },
  code({ a, b, c, m }, fallen) {
    return fallen.has(negativeModulo.id)
      ? `import math\n\nvalue = ${a} - ${b} * ${c}\nprint(int(math.fmod(value, ${m})))\n`
      : `value = ${a} - ${b} * ${c}\nprint(value % ${m})  # Python's % gives the least nonnegative residue\n`;
  },
  evaluate({ a, b, c, m }, fallen) {
    const value = a - b * c;
    const truncated = value % m; // JavaScript's % truncates, like math.fmod
    return String(fallen.has(negativeModulo.id) ? truncated : (truncated + m) % m);
  },
  describe: ({ a, b, c, m }) =>
    `The value ${a} - ${b}*${c} = ${a - b * c} is negative; I reduce it modulo ${m}.`,
};

// --- combined mean of groups (pitfall: unweighted mean of means) -------------------------------------------------

interface MeanParams {
  sizes: number[];
  means: number[];
}

const groupNames = ["A", "B", "C", "D"];

export const combinedMean: MathFamily<MeanParams> = {
  id: "combined-mean",
  pitfalls: [weightedMean],
  generate(random) {
    for (;;) {
      const count = randomInt(random, 2, 4);
      const sizes = Array.from({ length: count }, () => randomInt(random, 5, 40));
      const means = Array.from({ length: count }, () => randomInt(random, 50, 95));
      const params = { sizes, means };
      if (
        combinedMean.evaluate(params, new Set()) !== combinedMean.evaluate(params, new Set([weightedMean.id]))
      )
        return params;
    }
  },
  question({ sizes, means }, variant) {
    const parts = sizes.map(
      (size, i) => `class ${groupNames[i]} has ${size} students with a mean score of ${means[i]}`,
    );
    const joined = `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
    const intro = `${["Two", "Three", "Four"][sizes.length - 2]} classes took the same test: ${joined}.`;
    return variant % 2 === 0
      ? `${intro} What is the mean score of all the students together? Give the exact value.`
      : `${intro} Find the overall average score of the students as an exact fraction or integer.`;
  },
  parse(question) {
    if (
      !/^(Two|Three|Four) classes took the same test: .+\. (What is the mean score of all the students together\? Give the exact value\.|Find the overall average score of the students as an exact fraction or integer\.)$/.test(
        question,
      )
    )
      return null;
    const sizes: number[] = [];
    const means: number[] = [];
    for (const m of question.matchAll(/class [A-D] has (\d+) students with a mean score of (\d+)/g)) {
      sizes.push(Number(m[1]));
      means.push(Number(m[2]));
    }
    return sizes.length >= 2 ? { sizes, means } : null;
  },
  code({ sizes, means }, fallen) {
    return fallen.has(weightedMean.id)
      ? `from fractions import Fraction\n\nmeans = [${means.join(", ")}]\nprint(Fraction(sum(means), len(means)))\n`
      : `from fractions import Fraction\n\nsizes = [${sizes.join(", ")}]\nmeans = [${means.join(", ")}]\n` +
          `total = sum(n * m for n, m in zip(sizes, means))\nprint(Fraction(total, sum(sizes)))\n`;
  },
  evaluate({ sizes, means }, fallen) {
    if (fallen.has(weightedMean.id))
      return fractionText(BigInt(means.reduce((s, m) => s + m, 0)), BigInt(means.length));
    const total = sizes.reduce((s, n, i) => s + n * means[i]!, 0);
    return fractionText(BigInt(total), BigInt(sizes.reduce((s, n) => s + n, 0)));
  },
  describe: ({ sizes }) => `I will combine the ${sizes.length} class averages.`,
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
