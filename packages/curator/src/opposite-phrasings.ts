import { stem, stopwords, words } from "./text-tokens.js";

/** polarity +1: the text tells the agent to do the action; -1: not to. */
export interface InstructionSignature {
  /** The action as its first two content stems ("verify answer"), antonyms folded into one form. */
  strong: Map<string, 1 | -1>;
  /** The action's first stem only ("verify"): opposite here is a hint for the model check, not a conflict. */
  weak: Map<string, 1 | -1>;
}

export interface OppositePhrasing {
  a: number;
  b: number;
  /** The action both texts address with opposite instructions. */
  action: string;
}

// Multi-word cues first, so "do not" wins over "do".
const negativeCues = [
  "do not",
  "does not",
  "should not",
  "must not",
  "need not",
  "no need to",
  "refrain from",
  "instead of",
  "rather than",
  "don't",
  "doesn't",
  "shouldn't",
  "mustn't",
  "never",
  "avoid",
  "not",
  "skip",
  "stop",
  "without",
].map((cue) => cue.split(" "));
const positiveCues = [
  "make sure to",
  "make sure",
  "remember to",
  "be sure to",
  "always",
  "must",
  "should",
  "ensure",
  "prefer",
].map((cue) => cue.split(" "));
/** Clauses opening with these state a condition, not an instruction ("When X, ..."). */
const conditionWords = new Set(
  "when whenever if for in on during while after before since because once unless as to where given".split(
    " ",
  ),
);
/** Words that carry the instruction's polarity but not its action. */
const fillerWords = new Set("do does be is are just also try first then again immediately re".split(" "));
/** Antonym stems folded onto one form with a polarity flip: "exclude endpoints" = not "include endpoints". */
const antonyms = new Map<string, string>([
  ["exclud", "includ"],
  ["decreas", "increas"],
  ["after", "before"],
  ["late", "early"],
  ["last", "first"],
  ["minimum", "maximum"],
  ["min", "max"],
  ["lower", "upper"],
  ["disabl", "enabl"],
  ["distrust", "trust"],
  ["reject", "accept"],
  ["discard", "keep"],
  ["remov", "add"],
  ["down", "up"],
  ["ignor", "consider"],
  ["shorten", "lengthen"],
  ["slow", "fast"],
  ["manual", "automat"],
  ["estimat", "comput"],
]);

function startsWith(tokens: readonly string[], at: number, cue: readonly string[]): boolean {
  for (let index = 0; index < cue.length; index++) if (tokens[at + index] !== cue[index]) return false;
  return true;
}

function actionAfter(tokens: readonly string[], from: number): { stems: string[]; flips: number } {
  const stems: string[] = [];
  let flips = 0;
  for (let index = from; index < tokens.length && stems.length < 2; index++) {
    const word = tokens[index]!;
    if (stopwords.has(word) || fillerWords.has(word)) continue;
    // A second cue inside the action ends it: "avoid X, always Y" are two instructions.
    if (negativeCues.some((cue) => startsWith(tokens, index, cue))) break;
    let stemmed = stem(word.replace(/^re-?(?=[a-z]{4})/, ""));
    const folded = antonyms.get(stemmed);
    if (folded) {
      stemmed = folded;
      flips++;
    }
    stems.push(stemmed);
  }
  return { stems, flips };
}

/**
 * The instructions a text gives, as (action, polarity): "never retry the same query" -> (retry same, -1). A clause
 * without a cue counts as a positive imperative unless it opens with a condition ("When X"). Heuristic by design: it
 * is the cheap rule scan of seed 002 3.3 ("先验证再执行" vs "不要重复验证"), next to the embedding + model check.
 */
export function instructionSignatures(text: string): InstructionSignature {
  const strong = new Map<string, 1 | -1>();
  const weak = new Map<string, 1 | -1>();
  const record = (action: { stems: string[]; flips: number }, polarity: 1 | -1) => {
    if (action.stems.length === 0) return;
    const sign = (action.flips % 2 === 0 ? polarity : -polarity) as 1 | -1;
    // A text that says both (rare) gives no clear instruction on that action.
    const put = (map: Map<string, 1 | -1>, key: string) => {
      const before = map.get(key);
      if (before !== undefined && before !== sign) map.delete(key);
      else map.set(key, sign);
    };
    if (action.stems.length === 2) put(strong, action.stems.join(" "));
    put(weak, action.stems[0]!);
  };
  for (const clause of text.split(/[.;:!?,()]|\s(?:but|then|and then|otherwise)\s/i)) {
    const tokens = words(clause);
    if (tokens.length === 0) continue;
    let cued = false;
    for (let index = 0; index < tokens.length; index++) {
      const negative = negativeCues.find((cue) => startsWith(tokens, index, cue));
      if (negative) {
        record(actionAfter(tokens, index + negative.length), -1);
        cued = true;
        index += negative.length - 1;
        continue;
      }
      const positive = positiveCues.find((cue) => startsWith(tokens, index, cue));
      if (positive) {
        record(actionAfter(tokens, index + positive.length), 1);
        cued = true;
        index += positive.length - 1;
      }
    }
    if (!cued && !conditionWords.has(tokens[0]!)) record(actionAfter(tokens, 0), 1);
  }
  return { strong, weak };
}

/** An action on which two signatures give opposite instructions, or null. */
export function oppositeAction(
  a: InstructionSignature,
  b: InstructionSignature,
  level: "strong" | "weak",
): string | null {
  const left = level === "strong" ? a.strong : a.weak;
  const right = level === "strong" ? b.strong : b.weak;
  for (const [action, polarity] of left) if (right.get(action) === -polarity) return action;
  return null;
}

/**
 * All pairs of texts with opposite instructions on the same action, through an inverted index on actions (never all
 * pairs). A very common action ("verify result") contributes at most `maxPairsPerAction` pairs, so one generic phrase
 * cannot blow up the output.
 */
export function findOppositePhrasings(
  signatures: readonly InstructionSignature[],
  options: { maxPairsPerAction?: number; accept?: (a: number, b: number) => boolean } = {},
): OppositePhrasing[] {
  const maxPairs = options.maxPairsPerAction ?? 64;
  const byAction = new Map<string, { positive: number[]; negative: number[] }>();
  signatures.forEach((signature, index) => {
    for (const [action, polarity] of signature.strong) {
      let entry = byAction.get(action);
      if (!entry) {
        entry = { positive: [], negative: [] };
        byAction.set(action, entry);
      }
      (polarity === 1 ? entry.positive : entry.negative).push(index);
    }
  });
  const found: OppositePhrasing[] = [];
  const seen = new Set<string>();
  for (const [action, { positive, negative }] of byAction) {
    let emitted = 0;
    for (const x of positive) {
      for (const y of negative) {
        if (emitted >= maxPairs) break;
        const a = Math.min(x, y);
        const b = Math.max(x, y);
        const key = `${a}:${b}`;
        if (a === b || seen.has(key)) continue;
        if (options.accept && !options.accept(a, b)) continue;
        seen.add(key);
        found.push({ a, b, action });
        emitted++;
      }
    }
  }
  return found.sort((x, y) => x.a - y.a || x.b - y.b);
}
