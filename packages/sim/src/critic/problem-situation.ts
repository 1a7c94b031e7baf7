import { normalizeText } from "../text/normalize-text.js";

/**
 * When a lesson applies, in the critic's own words, read off the problem's text: a lesson starts with the kind of
 * task ("When counting the days from a start date to an end date, ..."), never with this problem's numbers.
 */

interface SituationRule {
  when: (question: string) => boolean;
  phrases: readonly string[];
  /** Neighbouring situations a lesson for this kind of task does not fit, as a critic would name them. */
  unlike: readonly string[];
}

const has = (pattern: RegExp) => (question: string) => pattern.test(question);
const both = (a: RegExp, b: RegExp) => (question: string) => a.test(question) && b.test(question);

const rules: readonly SituationRule[] = [
  {
    when: both(/\bdays?\b/i, /\bfrom\b[^?]*\b(?:to|through|until)\b/i),
    phrases: [
      "counting the days from a start date to an end date",
      "working out how many calendar days a dated event lasts",
      "counting days across a date span",
    ],
    unlike: ["both times fall on the same day", "the span is asked in whole weeks or months"],
  },
  {
    when: has(/\bmultiples? of\b|\bdivisible by\b/i),
    phrases: [
      "counting multiples of a number between two given bounds",
      "counting the integers in a stretch that a given number divides",
      "tallying multiples across an interval of integers",
    ],
    unlike: ["a single number is tested for divisibility"],
  },
  {
    when: both(
      /\b(?:integers|numbers|whole numbers|even|odd)\b/i,
      /\b(?:from|between)\b[^?]*\b(?:to|and|through)\b/i,
    ),
    phrases: [
      "counting the integers of a kind between two bounds",
      "counting whole numbers over a stretch with given ends",
      "tallying numbers that lie between two limits",
    ],
    unlike: ["the numbers are listed one by one in the question"],
  },
  {
    when: has(/\bsegment\b/i),
    phrases: [
      "checking which lines meet a line segment",
      "counting lines that cross a segment between two points",
      "testing a family of lines against a finite segment",
    ],
    unlike: ["the line extends without end in both directions"],
  },
  {
    when: has(/\breal (?:roots?|solutions?|zeros?)\b/i),
    phrases: [
      "adding up the real roots of several quadratics",
      "counting distinct real roots of quadratic equations",
      "totalling real solutions over a list of equations",
    ],
    unlike: ["complex roots count as well"],
  },
  {
    when: both(/%|\bpercent/i, /\bprice\b|\bcosts?\b|\$/i),
    phrases: [
      "working out a price after successive percentage changes",
      "applying a percentage rise and then a fall to a price",
      "computing a final price from chained percent changes",
    ],
    unlike: ["only one percentage change is applied"],
  },
  {
    when: has(/\bmod\b|\bmodulo\b|\bremainder\b|\bresidue\b/i),
    phrases: [
      "finding the remainder of an expression that may be negative",
      "reducing an integer expression modulo a number",
      "computing a remainder after a subtraction",
    ],
    unlike: ["every number involved is already positive"],
  },
  {
    when: both(/\bmean\b|\baverage\b/i, /\bclass(?:es)?\b|\bgroups?\b|\bteams?\b|\bstudents\b/i),
    phrases: [
      "combining class averages into one overall mean",
      "finding the mean of several groups taken together",
      "merging the averages of groups of different sizes",
    ],
    unlike: ["every group has the same size"],
  },
  {
    when: both(
      /\bwithout replacement\b|\bnot replaced\b|\bwithout (?:putting|returning)\b/i,
      /\bdraw|\bdrawn\b|\bpick/i,
    ),
    phrases: [
      "finding the chance of drawing several items without putting them back",
      "computing a probability over draws that are not replaced",
    ],
    unlike: ["every item drawn is replaced, so the second draw has the same odds"],
  },
  {
    when: both(/\bprobability\b|\bchance\b/i, /\bdraw|\bdrawn\b|\bpick|\bchosen\b|\bselected\b/i),
    phrases: [
      "finding the chance of drawing several items in turn",
      "computing a probability over successive draws",
    ],
    unlike: ["only one item is drawn"],
  },
  {
    when: has(/\bcommittee\b|\bchoose\b|\bselect\b|\bteam of\b|\bsubsets?\b/i),
    phrases: ["counting ways to pick a group from a pool", "counting the selections of members for a group"],
    unlike: ["the order of the chosen members matters"],
  },
  {
    when: has(/\barrange|\bin a row\b|\bline up\b|\bpodium\b|\bordered\b/i),
    phrases: ["counting arrangements of items in order", "counting the ways to line items up"],
    unlike: ["the order of the items does not matter"],
  },
];

/** Gerund phrases for the kind of task the question is, or null when the critic has no words for it. */
export function situationsOf(question: string): readonly string[] | null {
  for (const rule of rules) if (rule.when(question)) return rule.phrases;
  return null;
}

/**
 * Situations next to the question's kind of task where a lesson about it would not fit ("every group has the same
 * size" beside combining group means), or null when the critic has no words for the task. Read off the problem
 * alone, as a model would: nothing here knows the world's pitfalls.
 */
export function exclusionsOf(question: string): readonly string[] | null {
  for (const rule of rules) if (rule.when(question)) return rule.unlike;
  return null;
}

interface SubjectRule {
  pattern: RegExp;
  subject: string;
}

const subjects: readonly SubjectRule[] = [
  { pattern: /\bfounded\b|\bfounding\b/i, subject: "a company's founding year" },
  { pattern: /\bemploy/i, subject: "a company's headcount" },
  { pattern: /\bchief executive\b|\bCEO\b|\bleads\b/i, subject: "who leads a company" },
  { pattern: /\bpopulation\b|\blive in\b/i, subject: "a city's population" },
  { pattern: /\barea\b|\bhectares\b/i, subject: "a city's land area" },
  { pattern: /\bweigh/i, subject: "a product's weight" },
  { pattern: /\bbattery\b/i, subject: "a device's battery life" },
];

/** What a web question looks up, as a short noun phrase ("a city's population"). */
export function subjectOf(question: string): string {
  for (const rule of subjects) if (rule.pattern.test(question)) return rule.subject;
  const words = keyWords(question, 2);
  return words.length > 0 ? `the ${words.join(" ")}` : "a looked-up fact";
}

/** The question's most telling content words (no numbers, no proper names), in order. */
export function keyWords(question: string, count: number): string[] {
  const plain = question.replace(/\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+\b/g, " ").replace(/[\d$%]+/g, " ");
  const raw = plain.toLowerCase().match(/[a-z]{4,}/g) ?? [];
  const kept = new Set(normalizeText(plain).tokens);
  const out: string[] = [];
  for (const word of raw) {
    if (
      out.includes(word) ||
      /^(?:what|which|many|much|does|give|find|value|exact|total|that|this|with|from|there)$/.test(word)
    )
      continue;
    if ([...kept].some((token) => word.startsWith(token.slice(0, 4)))) out.push(word);
    if (out.length >= count) break;
  }
  return out;
}

/** The thing a question asks about ("How many even numbers are there ..." -> "even numbers"), or null. */
function askedThing(question: string): string | null {
  if (/\bhow many ways\b/i.test(question)) return "the number of possible ways";
  const m =
    /^\s*(?:how many|how much|what is|what are|find|compute|which|what)\s+(?:the\s+)?([a-z][a-z -]*?)\s+(?:are|is|do|does|did|can|could|will|would|lie|in|of|from|between|there|that|when|for|has|have)\b/i.exec(
      question,
    );
  const thing = m?.[1]?.trim();
  return thing && thing.split(/\s+/).length <= 4 ? thing.toLowerCase() : null;
}

/** A situation for a task the critic has no words for: built from what the question asks about. */
export function fallbackSituations(question: string): string[] {
  const thing = askedThing(question) ?? keyWords(question, 2).join(" ");
  if (thing === "") return ["working on this kind of problem"];
  return [`solving a question about ${thing}`, `working out ${thing}`];
}
