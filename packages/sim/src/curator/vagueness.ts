import { canonicalTokens } from "../embeddings.js";
import { negationWords } from "../text/normalize-text.js";

/**
 * Words of advice that name no situation and no concrete action: "check", "careful", "answer", "step". General
 * English, the same for every domain. What remains of a lesson without them is its concrete content.
 */
const fillerPhrases = [
  "always",
  "careful",
  "carefully",
  "attention",
  "think",
  "thinking",
  "thought",
  "consider",
  "remember",
  "mind",
  "make sure",
  "check",
  "verify",
  "ensure",
  "double check",
  "review",
  "reread",
  "read",
  "look",
  "note",
  "notice",
  "good",
  "important",
  "properly",
  "correct",
  "correctly",
  "accurate",
  "accurately",
  "right",
  "mistake",
  "error",
  "errors",
  "problem",
  "question",
  "task",
  "answer",
  "result",
  "solution",
  "step",
  "steps",
  "work",
  "thing",
  "things",
  "everything",
  "approach",
  "method",
  "strategy",
  "calculation",
  "calculate",
  "compute",
  "computation",
  "solve",
  "solving",
  "use",
  "need",
  "make",
  "take",
  "give",
  "get",
  "find",
  "sure",
  "care",
  "time",
  "way",
  "well",
  "really",
  "again",
  "before",
  "after",
  "case",
  "cases",
  "detail",
  "details",
  "relevant",
  "information",
  "data",
  "final",
  "keep",
  "try",
  "like",
  "able",
  "know",
  "going",
  "best",
  "better",
  "clear",
  "clearly",
  "simple",
  "whether",
  "instead",
  "rather",
  "only",
  "also",
  "first",
];

let filler: Set<string> | undefined;

/** Canonical tokens (stems or synonym labels) of the filler vocabulary. */
export function fillerTokens(): ReadonlySet<string> {
  filler ??= new Set(fillerPhrases.flatMap((phrase) => canonicalTokens(phrase)));
  return filler;
}

/** The concrete content words of a text: canonical tokens that are neither filler nor negation. */
export function contentWords(text: string): string[] {
  const skip = fillerTokens();
  return canonicalTokens(text).filter((token) => !skip.has(token) && !negationWords.has(token));
}

/**
 * Numbers, notation and code in a text: `b^2 - 4ac`, `range(lo, hi + 1)`, `x % m`, `1000`. A real reader takes
 * these as a sign the advice is concrete.
 */
export function notationCount(text: string): number {
  const digits = text.match(/\d+(?:\.\d+)?/g)?.length ?? 0;
  const symbols = text.match(/[=+*/^%<>]|\w\(|\)|\[|\]|`/g)?.length ?? 0;
  return digits + Math.min(4, Math.ceil(symbols / 2));
}

/** Concrete content of a lesson: distinct content words, with notation counting double. */
export function specificity(text: string): number {
  return new Set(contentWords(text)).size + 2 * notationCount(text);
}

const vaguePhrases = [
  /\bbe (?:very |extra |more )?careful\b/i,
  /\bpay (?:close |more )?attention\b/i,
  /\bthink (?:about|through|carefully|twice|step by step)\b/i,
  /\bkeep\b.{0,40}\bin mind\b/i,
  /\bbe mindful\b/i,
  /\btake (?:your )?time\b/i,
  /\bdouble[- ]check\b/i,
  /\bwatch out\b/i,
  /\bremember to\b/i,
  /\b(?:look|check) (?:closely|carefully)\b/i,
  /^\s*consider\b/i,
];

/** Remarks that something is hard without saying what to do ("can be tricky", "needs care"). */
const hedges =
  /\b(?:tricky|subtle|misleading|confus(?:e|ing)|unexpected(?:ly)?|straightforward|deserves?|created equal|what (?:they|it) seems?|needs? (?:some |extra |more |special )?(?:care|attention|thought|thinking)|can (?:be|introduce|cause|go)|not always|matters?|are different|is different|differ)\b/i;

/** Words that tell the reader to do something: modals, negated imperatives, prescriptive adverbs. */
const directives =
  /\b(?:should|must|need to|needs to|have to|has to|always|never|don't|do not|avoid|instead|rather than|make sure|only)\b/i;

/** Everyday verbs a lesson's main clause starts with when it tells the reader what to do. */
const actionVerbs = new Set(
  (
    "use include exclude count add subtract multiply divide apply convert compute calculate check verify keep drop " +
    "round weight list write compare open read prefer answer give take treat test draw choose sum solve factor reduce " +
    "report remove skip omit ignore start begin stop set put find search fetch confirm look copy express multiply " +
    "split combine average enumerate simulate substitute plug evaluate expand simplify multiply scale carry shift " +
    "replace leave trust rely fall return print run state note record mark"
  ).split(" "),
);

/** Whether a clause of the text starts with an action verb (after a leading "When ..., " / "For ..., " clause). */
function hasImperative(text: string): boolean {
  for (const clause of text.toLowerCase().split(/[;:,.!?()]\s*/)) {
    const first = clause.trim().split(/[^a-z'-]+/)[0];
    if (first && actionVerbs.has(first)) return true;
  }
  return false;
}

/**
 * A generic vagueness test, the same for every domain: advice with almost no concrete content ("Verify your answer."),
 * a bare topic name ("Rounding timing."), a remark that something is hard without an action ("Percentages can be
 * misleading."), or a vague phrase with little else ("Keep the units in mind."). It does not know whether the
 * advice would help.
 */
export function isVague(text: string): boolean {
  const concrete = specificity(text);
  const notation = notationCount(text) > 0;
  const acts = hasImperative(text) || directives.test(text);
  if (concrete < 2) return true;
  if (concrete < 3 && !acts) return true;
  if (vaguePhrases.some((pattern) => pattern.test(text)) && concrete < 5) return true;
  if (hedges.test(text) && !acts && !notation && concrete < 7) return true;
  return !acts && !notation && concrete < 4;
}
