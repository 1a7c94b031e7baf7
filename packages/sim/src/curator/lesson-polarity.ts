import { stem } from "../text/normalize-text.js";

/**
 * The simulated curator's own reading of which way a lesson points. It knows general English only: negation and its
 * reach within a clause, condition clauses ("if ...", "when ...") as context rather than instruction, a small table of
 * everyday antonym pairs (include/exclude, before/after, once/twice, ...), negating prefixes (weighted/unweighted) and
 * formulas (the same expression affirmed and negated, or two different expressions over the same variables). It knows
 * no task, no pitfall and nothing the simulated policy reads, so it can only say whether two texts point the same way
 * or opposite ways on what they share, and it is often unsure: on lessons written independently it flags only a small
 * share of contradictory pairs (see lesson-bank-reading.test.ts).
 */

/** One pole of an antonym pair: the words on its positive side and on its negative side. */
interface AntonymPair {
  pole: string;
  positive: readonly string[];
  negative: readonly string[];
}

const antonymPairs: readonly AntonymPair[] = [
  {
    pole: "inclusion",
    positive: [
      "include",
      "inclusive",
      "including",
      "included",
      "contain",
      "retain",
      "keep",
      "count in",
      "account for",
    ],
    negative: [
      "exclude",
      "exclusive",
      "excluding",
      "excluded",
      "omit",
      "leave out",
      "drop",
      "skip",
      "remove",
      "discard",
      "ignore",
      "disregard",
      "neglect",
      "strictly",
    ],
  },
  {
    pole: "order-in-time",
    positive: ["before", "earlier", "beforehand", "prior"],
    negative: ["after", "later", "afterwards"],
  },
  {
    pole: "transformation",
    positive: ["convert", "conversion", "converted", "translate", "rescale"],
    negative: ["keep", "as stated", "as is", "as given", "unchanged", "verbatim", "copy"],
  },
  {
    pole: "multiplicity",
    positive: ["once", "one time", "single", "singly"],
    negative: ["twice", "two times", "double", "multiple times", "repeatedly", "again"],
  },
  {
    pole: "stage",
    positive: ["final", "at the end", "last step", "end result"],
    negative: ["intermediate", "each step", "every step", "along the way", "as you go", "midway", "partial"],
  },
  {
    pole: "state",
    positive: ["original", "initial", "starting"],
    negative: ["new", "updated", "resulting", "already"],
  },
  {
    pole: "recency",
    positive: ["latest", "newest", "recent", "current", "up to date"],
    negative: ["oldest", "old", "outdated", "earliest", "stale", "first found"],
  },
  {
    pole: "rank",
    positive: ["primary", "official", "authoritative"],
    negative: ["secondary", "unofficial", "third party"],
  },
  {
    pole: "precision",
    positive: ["exact", "exactly", "precise", "full precision", "unrounded"],
    negative: ["approximate", "approximately", "estimate", "rough", "roughly"],
  },
  { pole: "sameness", positive: ["same", "equal", "identical"], negative: ["different", "unequal"] },
  {
    pole: "amount",
    positive: ["increase", "more", "greater", "larger", "higher", "add", "plus"],
    negative: ["decrease", "less", "fewer", "smaller", "lower", "subtract", "minus"],
  },
  {
    pole: "position",
    positive: ["inside", "within", "interior"],
    negative: ["outside", "beyond", "exterior"],
  },
  { pole: "sign", positive: ["positive", "nonnegative"], negative: ["negative"] },
  { pole: "closure", positive: ["closed"], negative: ["open"] },
  { pole: "reality", positive: ["real"], negative: ["imaginary"] },
  {
    pole: "separation",
    positive: ["separately", "individually", "independently"],
    negative: ["together", "jointly", "combined"],
  },
  {
    // Advice that insists on a correction against advice that waves it away ("simply", "no need", "as is").
    pole: "care",
    positive: [
      "must",
      "make sure",
      "ensure",
      "adjust",
      "account for",
      "correction",
      "careful",
      "carefully",
      "bother",
      "need",
      "needed",
      "required",
    ],
    negative: [
      "simply",
      "just",
      "directly",
      "regardless",
      "whatever",
      "anyway",
      "cancel",
      "cancels",
      "cancel out",
      "equivalent",
      "quicker",
      "shortcut",
    ],
  },
  {
    pole: "trust",
    positive: ["trust", "believe", "rely"],
    negative: ["doubt", "distrust", "mistrust", "suspect"],
  },
];

/** Words that turn what follows in their clause around. */
const negators = new Set([
  "not",
  "no",
  "never",
  "without",
  "avoid",
  "neither",
  "nor",
  "instead",
  "rather",
  "stop",
  "refrain",
  "cannot",
]);
/** Clause openers of a condition: its words describe the situation, not the instruction. */
const conditionOpeners = new Set([
  "if",
  "when",
  "whenever",
  "where",
  "once",
  "since",
  "because",
  "given",
  "unless",
  "whether",
  "iff",
]);
/** Poles that mostly describe a situation (a negative number, a real root) rather than an action: they weigh less. */
const descriptivePoles = new Set(["sign", "reality", "sameness", "position", "amount", "closure"]);
/** Words that end a negation's reach inside a clause ("do not round until the end"). */
const scopeEnds = new Set(["but", "until", "unless", "except", "only", "then", "so", "because", "yet"]);
/** A clause that calls something a mistake says the opposite of what it names. */
const errorWords = new Set(["mistake", "wrong", "error", "incorrect", "pitfall", "trap", "bug", "fallacy"]);
const negatingPrefixes = ["non", "un", "dis", "in", "im", "ir", "il"];

interface PoleWord {
  tokens: string[];
  pole: string;
  sign: 1 | -1;
}

let poleIndex: Map<string, PoleWord[]> | undefined;

function stemmed(words: string): string[] {
  return words.split(/\s+/).filter(Boolean).map(stem);
}

function buildPoleIndex(): Map<string, PoleWord[]> {
  const index = new Map<string, PoleWord[]>();
  const add = (words: string, pole: string, sign: 1 | -1) => {
    const tokens = stemmed(words);
    const list = index.get(tokens[0]!) ?? [];
    list.push({ tokens, pole, sign });
    index.set(tokens[0]!, list);
  };
  for (const pair of antonymPairs) {
    for (const w of pair.positive) add(w, pair.pole, 1);
    for (const w of pair.negative) add(w, pair.pole, -1);
  }
  for (const list of index.values()) list.sort((a, b) => b.tokens.length - a.tokens.length);
  return index;
}

/** Words too common to carry a direction of their own (articles, pronouns, auxiliaries). */
const ignored = new Set(
  (
    "a an the of to is are was were be been being for in on at by and or as it its this that these those from into " +
    "when whenever which than there their them they we you your i will would should must can could do does did has " +
    "have had may might also just very any some such s t if what how our one it's each every all both"
  ).split(" "),
);

export interface PolarityReading {
  /** Key (stemmed word, or `pole:name`) -> net sign in the text (+1 affirmed, -1 negated; 0 when both). */
  signs: Map<string, number>;
  /** Lower-cased, whitespace-normalised text (identical texts always agree). */
  normalized: string;
  /** Formulas and code expressions of the text, with their variables and sign. */
  formulas: Formula[];
}

export interface Formula {
  /** The expression without spaces: `b-a+1`, `range(a,b+1)`. */
  key: string;
  /** Its identifiers, sorted and joined: `a b`. */
  variables: string;
  sign: number;
}

const operandPattern = /[a-z0-9_.()[\]]+/y;
const joinerPattern = /\s*(?:<=|>=|==|!=|[-+*/^%<>=])\s*|,\s*/y;

/** Expressions with at least one operator ("b - a + 1", "range(lo, hi + 1)"), not hyphenated words ("off-by-one"). */
function formulasOf(text: string): { key: string; variables: string; start: number }[] {
  const lower = text.toLowerCase();
  const out: { key: string; variables: string; start: number }[] = [];
  for (let start = 0; start < lower.length; ) {
    operandPattern.lastIndex = start;
    if ((start > 0 && /[a-z0-9_]/.test(lower[start - 1]!)) || !operandPattern.exec(lower)) {
      start++;
      continue;
    }
    let end = operandPattern.lastIndex;
    const parts: string[] = [lower.slice(start, end)];
    for (;;) {
      joinerPattern.lastIndex = end;
      const joiner = joinerPattern.exec(lower);
      if (!joiner) break;
      let depth = 0;
      for (const ch of parts.join(""))
        depth += ch === "(" || ch === "[" ? 1 : ch === ")" || ch === "]" ? -1 : 0;
      // A comma joins only inside brackets: "range(a, b + 1)" is one expression, "b - a, not" is not.
      if (joiner[0].trim() === "," && depth <= 0) break;
      operandPattern.lastIndex = joinerPattern.lastIndex;
      const operand = operandPattern.exec(lower);
      if (!operand) break;
      parts.push(joiner[0].trim(), operand[0]);
      end = operandPattern.lastIndex;
    }
    const key = parts.join("").replace(/[.,]+$/, "");
    const hasOperator = parts.some((part, i) => i % 2 === 1 && part !== ",") || /\w\(.+,.+\)/.test(key);
    // Prose glued by a symbol ("20% increase", "off-by-one") is not a formula: its long names are plain words.
    const proseWord = [...key.matchAll(/[a-z_][a-z0-9_]*/g)].some(
      (m) => m[0].length >= 4 && !/[_\d]/.test(m[0]) && key[m.index + m[0].length] !== "(",
    );
    if (hasOperator && !proseWord) {
      const identifiers = [...new Set(key.match(/[a-z_][a-z0-9_]*/g) ?? [])].sort();
      out.push({ key, variables: identifiers.join(" "), start });
    }
    start = Math.max(end, start + 1);
  }
  return out;
}

/** Whether a negator stands shortly before `position` in the same sentence part. */
function negatedAt(text: string, position: number): boolean {
  const before = text.slice(0, position).toLowerCase().replace(/n't\b/g, " not");
  const part = before.split(/[;:!?,]|\.(?=\s)/).at(-1) ?? "";
  let negated = false;
  for (const word of part
    .split(/[^a-z]+/)
    .filter(Boolean)
    .slice(-6)) {
    if (negators.has(word)) negated = true;
    else if (scopeEnds.has(word)) negated = false;
  }
  return negated;
}

function clausesOf(text: string): string[][] {
  const expanded = text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/can't|cannot/g, "can not")
    .replace(/won't/g, "will not")
    .replace(/n't\b/g, " not")
    .replace(/\bno need\b/g, "not")
    .replace(/\bnon[- ]/g, "non");
  return expanded
    .split(/[;:,!?()[\]{}\n]|\.(?=\s|$)|\s-\s|\s—\s/)
    .map((clause) => clause.split(/[^a-z0-9]+/).filter(Boolean))
    .filter((words) => words.length > 0);
}

/** Reads the signs of one text's words and antonym poles. */
export function readPolarity(text: string): PolarityReading {
  poleIndex ??= buildPoleIndex();
  const signs = new Map<string, number>();
  const note = (key: string, sign: number) => {
    const before = signs.get(key);
    signs.set(key, before === undefined ? sign : before === sign ? sign : 0);
  };
  for (const words of clausesOf(text)) {
    // A condition says when the advice applies, not what to do ("if the list is empty, ...").
    if (conditionOpeners.has(words[0]!)) continue;
    // "A common mistake is to drop the ends" says to keep them (unless the clause negates on its own).
    const flipClause = words.some((w) => errorWords.has(w)) && !words.some((w) => negators.has(w)) ? -1 : 1;
    const tokens = words.map((w) => (ignored.has(w) || negators.has(w) || errorWords.has(w) ? w : stem(w)));
    let negated = false;
    // A negation bears on the words right after it ("never round ..."); further words of its clause are context.
    let reach = 0;
    for (let i = 0; i < tokens.length; ) {
      const word = words[i]!;
      if (negators.has(word)) {
        negated = true;
        reach = 2;
        i++;
        continue;
      }
      if (scopeEnds.has(word)) negated = false;
      const sign = (negated ? -1 : 1) * flipClause;
      const matches = (poleIndex.get(tokens[i]!) ?? []).filter((p) =>
        p.tokens.every((t, j) => tokens[i + j] === t),
      );
      if (matches.length > 0) {
        // Longest phrase first; a word on two poles ("keep": keep in, keep as is) notes both.
        const length = matches[0]!.tokens.length;
        for (const pole of matches.filter((p) => p.tokens.length === length))
          note(`pole:${pole.pole}`, sign * pole.sign);
        // The pole took the negation: its object is not negated ("never leave out the first day").
        reach = 0;
        i += length;
        continue;
      }
      if (!ignored.has(word) && !errorWords.has(word) && !scopeEnds.has(word)) {
        // In a clause that names a mistake only the antonyms say which way it points; its other words are context.
        if (flipClause > 0 && (!negated || reach > 0)) note(tokens[i]!, sign);
        reach--;
      }
      i++;
    }
  }
  const formulas = formulasOf(text).map((f) => ({
    key: f.key,
    variables: f.variables,
    sign: negatedAt(text, f.start) ? -1 : 1,
  }));
  return {
    signs,
    normalized: text
      .toLowerCase()
      .replace(/\s+/g, " ")
      .replace(/[.!]+$/, "")
      .trim(),
    formulas,
  };
}

export type Relation = "same" | "opposite" | "unclear";

export interface DirectionComparison {
  relation: Relation;
  /** Weighted evidence for each side. */
  same: number;
  opposite: number;
  /** The shared words or poles read in opposite directions (for a reason line). */
  disputed: string[];
}

/** A word with a negating prefix whose remainder is a word of the other text ("unweighted" against "weighted"). */
function prefixedForm(key: string, other: ReadonlyMap<string, number>): string | null {
  for (const prefix of negatingPrefixes) {
    if (!key.startsWith(prefix)) continue;
    const rest = key.slice(prefix.length);
    if (rest.length >= 4 && other.has(rest)) return rest;
  }
  return null;
}

/**
 * Whether two texts point the same way on what they share. Against: an antonym pole read both ways weighs 2 (1.2 for
 * poles that mostly describe a situation), a prefixed opposite ("unordered"/"ordered") 2, a formula affirmed and
 * negated or a rival formula 2, a shared word negated on one side only 1. For: words negated on both sides, poles
 * affirmed on both. "Opposite" needs at least 2 against and more against than for; no evidence is "unclear".
 */
export function compareDirections(a: PolarityReading, b: PolarityReading): DirectionComparison {
  if (a.normalized === b.normalized) return { relation: "same", same: 1, opposite: 0, disputed: [] };
  let same = 0;
  let opposite = 0;
  const disputed: string[] = [];
  const weigh = (key: string, sa: number, sb: number, weight: number) => {
    if (sa === 0 || sb === 0) return;
    if (sa !== sb) {
      opposite += weight;
      disputed.push(key.replace(/^pole:/, ""));
    } else if (sa < 0) same += Math.min(weight, 1.5);
    // Both affirming the same pole is mostly the shared topic ("inclusive" in both), weak evidence of agreement.
    else if (weight > 1) same += 1;
  };
  for (const [key, sa] of a.signs) {
    const sb = b.signs.get(key);
    if (sb !== undefined)
      weigh(key, sa, sb, key.startsWith("pole:") ? (descriptivePoles.has(key.slice(5)) ? 1.2 : 2) : 1);
    else {
      const rest = prefixedForm(key, b.signs);
      if (rest !== null) weigh(rest, -sa, b.signs.get(rest)!, 2);
    }
  }
  for (const [key, sb] of b.signs) {
    if (a.signs.has(key)) continue;
    const rest = prefixedForm(key, a.signs);
    if (rest !== null) weigh(rest, a.signs.get(rest)!, -sb, 2);
  }
  // Formulas: the same expression affirmed on one side and negated on the other, or two different expressions
  // over the same variables both affirmed ("b - a + 1" against "b - a"), point opposite ways.
  const keysA = new Map(a.formulas.map((f) => [f.key, f]));
  const keysB = new Map(b.formulas.map((f) => [f.key, f]));
  for (const [key, fa] of keysA) {
    const fb = keysB.get(key);
    if (fb) weigh(`formula ${key}`, fa.sign, fb.sign, 2);
  }
  for (const fa of a.formulas) {
    // Inequalities are conditions ("d < 0", "d >= 0"), not rival answers: only computations compete.
    if (fa.sign < 0 || keysB.has(fa.key) || fa.variables === "" || /[<>=]/.test(fa.key)) continue;
    const rival = b.formulas.find(
      (fb) =>
        fb.sign > 0 &&
        fb.variables === fa.variables &&
        fb.key !== fa.key &&
        !keysA.has(fb.key) &&
        !/[<>=]/.test(fb.key),
    );
    if (rival) {
      opposite += 2;
      disputed.push(`${fa.key} vs ${rival.key}`);
    }
  }
  // One shared word negated on one side is thin evidence ("not beyond the line" against "the full line only").
  const relation: Relation =
    opposite > same && opposite >= 2 ? "opposite" : same > opposite ? "same" : "unclear";
  return { relation, same, opposite, disputed };
}

/** How much direction a text states at all: the weight of its poles and negated words. */
export function polarWeight(reading: PolarityReading): number {
  let weight = 0;
  for (const [key, sign] of reading.signs) {
    if (key.startsWith("pole:")) weight += 2;
    else if (sign < 0) weight += 1;
  }
  return weight;
}
