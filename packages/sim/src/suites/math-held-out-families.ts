import { randomInt } from "../hash.js";
import { orderMatters, withoutReplacement } from "../pitfalls/math-held-out-pitfalls.js";
import { fractionText, type MathFamily } from "./math-family.js";

/**
 * Held-out math families: they appear only in the test split (never in train or validation), so a library learned
 * on train has seen nothing about their pitfalls. Their tasks are marked `familySplit: "out-of-family"`; a gain on
 * them would mean something leaks (the lessons are not what lifts the score).
 */

// --- choosing an unordered group (pitfall: counting ordered arrangements) ----------------------------------------

interface CommitteeParams {
  n: number;
  k: number;
  setting: number;
}

const groupSettings = [
  { pool: "club", items: "members", group: "committee", groups: "committees" },
  { pool: "squad", items: "players", group: "team", groups: "teams" },
  { pool: "collection", items: "distinct cards", group: "hand", groups: "hands" },
  { pool: "department", items: "employees", group: "working group", groups: "working groups" },
] as const;

function binomial(n: number, k: number): bigint {
  let result = 1n;
  for (let i = 0; i < k; i++) result = (result * BigInt(n - i)) / BigInt(i + 1);
  return result;
}

function arrangements(n: number, k: number): bigint {
  let result = 1n;
  for (let i = 0; i < k; i++) result *= BigInt(n - i);
  return result;
}

const alternatives = (values: readonly string[]) => values.join("|");

export const committeeChoices: MathFamily<CommitteeParams> = {
  id: "committee-choices",
  pitfalls: [orderMatters],
  generate(random) {
    const n = randomInt(random, 7, 16);
    return {
      n,
      k: randomInt(random, 2, Math.min(6, n - 2)),
      setting: randomInt(random, 0, groupSettings.length - 1),
    };
  },
  question({ n, k, setting }, variant) {
    const s = groupSettings[setting]!;
    return variant % 2 === 0
      ? `A ${s.pool} has ${n} ${s.items}. How many different ${s.groups} of ${k} ${s.items} can be chosen from them?`
      : `How many ways are there to choose a ${s.group} of ${k} from ${n} ${s.items}? The order in which they are chosen does not matter.`;
  },
  parse(question) {
    const pools = alternatives(groupSettings.map((s) => s.pool));
    const items = alternatives(groupSettings.map((s) => s.items));
    const groups = alternatives(groupSettings.map((s) => s.groups));
    const group = alternatives(groupSettings.map((s) => s.group));
    const first = new RegExp(
      `^A (${pools}) has (\\d+) (${items})\\. How many different (${groups}) of (\\d+) (${items}) can be chosen from them\\?$`,
    ).exec(question);
    if (first) {
      const setting = groupSettings.findIndex(
        (s) => s.pool === first[1] && s.items === first[3] && s.groups === first[4] && s.items === first[6],
      );
      if (setting < 0) return null;
      return { n: Number(first[2]), k: Number(first[5]), setting };
    }
    const second = new RegExp(
      `^How many ways are there to choose a (${group}) of (\\d+) from (\\d+) (${items})\\? The order in which they are chosen does not matter\\.$`,
    ).exec(question);
    if (!second) return null;
    const setting = groupSettings.findIndex((s) => s.group === second[1] && s.items === second[4]);
    if (setting < 0) return null;
    return { n: Number(second[3]), k: Number(second[2]), setting };
  },
  code({ n, k }, fallen) {
    return fallen.has(orderMatters.id)
      ? `import math\n\nprint(math.perm(${n}, ${k}))  # pick ${k} of ${n} one after another\n`
      : `import math\n\nprint(math.comb(${n}, ${k}))  # a group is the same whatever the order of picking\n`;
  },
  evaluate: ({ n, k }, fallen) => String(fallen.has(orderMatters.id) ? arrangements(n, k) : binomial(n, k)),
  describe: ({ n, k, setting }) =>
    `I will count the ways to pick ${k} of the ${n} ${groupSettings[setting]!.items}.`,
};

// --- two draws without replacement (pitfall: treating the draws as independent) ----------------------------------

interface DrawParams {
  red: number;
  blue: number;
  container: number;
}

const containers = ["bag", "jar", "box", "urn"];

export const drawsWithoutReplacement: MathFamily<DrawParams> = {
  id: "draws-without-replacement",
  pitfalls: [withoutReplacement],
  generate(random) {
    return {
      red: randomInt(random, 2, 9),
      blue: randomInt(random, 2, 12),
      container: randomInt(random, 0, containers.length - 1),
    };
  },
  question({ red, blue, container }, variant) {
    const c = containers[container]!;
    return variant % 2 === 0
      ? `A ${c} contains ${red} red marbles and ${blue} blue marbles. Two marbles are drawn at random without replacement. What is the probability that both are red? Give the exact fraction.`
      : `There are ${red} red and ${blue} blue marbles in a ${c}. You take out one marble at random, keep it out, and then take out a second one. What is the exact probability that both marbles are red?`;
  },
  parse(question) {
    const names = containers.join("|");
    const first = new RegExp(
      `^A (${names}) contains (\\d+) red marbles and (\\d+) blue marbles\\. Two marbles are drawn at random without replacement\\. What is the probability that both are red\\? Give the exact fraction\\.$`,
    ).exec(question);
    if (first)
      return { container: containers.indexOf(first[1]!), red: Number(first[2]), blue: Number(first[3]) };
    const second = new RegExp(
      `^There are (\\d+) red and (\\d+) blue marbles in a (${names})\\. You take out one marble at random, keep it out, and then take out a second one\\. What is the exact probability that both marbles are red\\?$`,
    ).exec(question);
    if (!second) return null;
    return { red: Number(second[1]), blue: Number(second[2]), container: containers.indexOf(second[3]!) };
  },
  code({ red, blue }, fallen) {
    const probability = fallen.has(withoutReplacement.id)
      ? "p = Fraction(r, n) ** 2  # each draw is red with probability r/n"
      : "p = Fraction(r, n) * Fraction(r - 1, n - 1)  # one red marble is gone before the second draw";
    return `from fractions import Fraction\n\nr = ${red}\nn = ${red + blue}\n${probability}\nprint(p)\n`;
  },
  evaluate({ red, blue }, fallen) {
    const r = BigInt(red);
    const n = BigInt(red + blue);
    return fallen.has(withoutReplacement.id)
      ? fractionText(r * r, n * n)
      : fractionText(r * (r - 1n), n * (n - 1n));
  },
  describe: ({ red, blue }) =>
    `I will work out the chance of two red marbles from ${red} red and ${blue} blue.`,
};

/** Families only the test split contains. */
export const mathHeldOutFamilies: readonly MathFamily[] = [committeeChoices, drawsWithoutReplacement];

export function isHeldOutMathFamily(id: string): boolean {
  return mathHeldOutFamilies.some((family) => family.id === id);
}
