import { randomInt } from "../hash.js";
import {
  intermediateRounding,
  negativeModulo,
  successivePercentBase,
  weightedMean,
} from "../pitfalls/math-pitfalls.js";
import { fractionText, type MathFamily, roundHalfUp } from "./math-family.js";

/** The arithmetic families of the simulated math suite: successive percentages, modular remainders, pooled means. */

const int = String.raw`(-?\d+)`;

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
