import {
  constantValue,
  type ExpressionOptions,
  equationsEquivalent,
  expressionsEquivalent,
} from "./expressions-equivalent.js";
import { normalizeAnswer } from "./normalize-answer.js";
import { type AnswerValue, canonicalText, parseAnswer, type SequenceValue } from "./parse-answer.js";

export interface EquivalenceOptions extends ExpressionOptions {
  /**
   * Give partial credit for sets and lists of solutions: the share of items matched (gold {2, 3}, prediction {2}
   * scores 0.5). Off by default: the paper's reward is binary.
   */
  partialCredit?: boolean;
}

export interface Equivalence {
  /** 1 equal, 0 different, in between only with partialCredit. */
  score: number;
  reason: string;
}

// Longer answers are compared as text only.
const maxComparedChars = 2000;

interface Context {
  options: EquivalenceOptions;
  /** Percent marks apply to the top-level value only: "25%" may be 25 or 0.25. */
  goldPercent: boolean;
  predictionPercent: boolean;
}

/**
 * Decides whether a predicted answer states the same thing as the gold answer, the way a careful grader does:
 * both are normalized (see normalizeAnswer), parsed into values (see parseAnswer), then compared by kind:
 * numbers and expressions by value, equations up to a factor, points and intervals in order and with their
 * brackets, sets and lists of solutions in any order.
 */
export function answersEquivalent(
  gold: string,
  prediction: string,
  options: EquivalenceOptions = {},
): Equivalence {
  const normalizedGold = normalizeAnswer(gold);
  const normalizedPrediction = normalizeAnswer(prediction);
  if (normalizedPrediction.text === "") return { score: 0, reason: "empty answer" };
  if (normalizedGold.text.length > maxComparedChars || normalizedPrediction.text.length > maxComparedChars) {
    // No real answer is this long; parsing it would only cost time. Equal text is still equal.
    const equal = compact(normalizedGold.text) === compact(normalizedPrediction.text);
    return { score: equal ? 1 : 0, reason: `${equal ? "identical" : "different"} text (too long to parse)` };
  }
  const context: Context = {
    options,
    goldPercent: normalizedGold.percent,
    predictionPercent: normalizedPrediction.percent,
  };
  const goldValue = parseAnswer(normalizedGold.text);
  const predictionValue = parseAnswer(normalizedPrediction.text);
  const score = compare(goldValue, predictionValue, context, true);
  const shown = `${normalizedPrediction.text} vs gold ${normalizedGold.text}`;
  if (score >= 1) return { score: 1, reason: `equivalent: ${shown}` };
  if (score <= 0) return { score: 0, reason: `not equivalent (${describe(predictionValue)}): ${shown}` };
  return { score, reason: `partly equivalent (${Math.round(score * 100)}% of items): ${shown}` };
}

function describe(value: AnswerValue): string {
  return value.kind;
}

function compare(gold: AnswerValue, prediction: AnswerValue, context: Context, topLevel: boolean): number {
  if (gold.kind === "empty" || prediction.kind === "empty") {
    const other = gold.kind === "empty" ? prediction : gold;
    return other.kind === "empty" || (other.kind === "set" && other.items.length === 0) ? 1 : 0;
  }
  if (gold.kind === "choice" || prediction.kind === "choice") {
    const letter = (value: AnswerValue) =>
      value.kind === "choice" ? value.letter : value.kind === "expression" ? value.latex.trim() : null;
    return letter(gold) !== null && letter(gold) === letter(prediction) ? 1 : 0;
  }
  if (gold.kind === "text" || prediction.kind === "text") {
    return canonicalText(textOf(gold)) === canonicalText(textOf(prediction)) ? 1 : 0;
  }

  if (gold.kind === "set" || prediction.kind === "set") return compareSets(gold, prediction, context);
  if (gold.kind === "union" || prediction.kind === "union") {
    const goldParts = gold.kind === "union" ? gold.parts : gold.kind === "sequence" ? [gold] : null;
    const predictionParts =
      prediction.kind === "union" ? prediction.parts : prediction.kind === "sequence" ? [prediction] : null;
    if (!goldParts || !predictionParts) return 0;
    const { matched } = matchItems(goldParts, predictionParts, context);
    return matched === goldParts.length && matched === predictionParts.length ? 1 : 0;
  }
  if (gold.kind === "sequence" || prediction.kind === "sequence") {
    if (gold.kind !== "sequence" || prediction.kind !== "sequence") return 0;
    return compareSequences(gold, prediction, context) ? 1 : 0;
  }

  const goldEquation = gold.kind === "equation" ? gold : gold.equation;
  const predictionEquation = prediction.kind === "equation" ? prediction : prediction.equation;
  if (gold.kind === "equation" || prediction.kind === "equation") {
    if (!goldEquation || !predictionEquation) return 0;
    const equal = equationsEquivalent(goldEquation, predictionEquation, context.options);
    if (equal !== null) return equal ? 1 : 0;
    return compact(`${goldEquation.lhs}=${goldEquation.rhs}`) ===
      compact(`${predictionEquation.lhs}=${predictionEquation.rhs}`)
      ? 1
      : 0;
  }

  return compareExpressions(gold.latex, prediction.latex, context, topLevel) ? 1 : 0;
}

function compareExpressions(gold: string, prediction: string, context: Context, topLevel: boolean): boolean {
  const variants = (latex: string, percent: boolean) => (percent ? [latex, `(${latex})/100`] : [latex]);
  // A percent on one side only: "25%" matches 25 and 0.25. On both sides (or neither) the numbers must agree.
  const oneSided = topLevel && context.goldPercent !== context.predictionPercent;
  const goldVariants = variants(gold, oneSided && context.goldPercent);
  const predictionVariants = variants(prediction, oneSided && context.predictionPercent);
  for (const goldVariant of goldVariants) {
    for (const predictionVariant of predictionVariants) {
      const equal = expressionsEquivalent(goldVariant, predictionVariant, context.options);
      if (equal === true) return true;
      if (equal === null && compact(goldVariant) === compact(predictionVariant)) return true;
    }
  }
  return false;
}

function compareSequences(gold: SequenceValue, prediction: SequenceValue, context: Context): boolean {
  if (gold.items.length !== prediction.items.length) return false;
  if (gold.open !== prediction.open || gold.close !== prediction.close) {
    // [a, b] with an infinite end is written either way round by some models: "[1, \infty]". Only the finite
    // side's bracket carries meaning there.
    if (!(gold.items.length === 2 && sameIgnoringInfiniteBrackets(gold, prediction))) return false;
  }
  return gold.items.every((item, index) => compare(item, prediction.items[index]!, context, false) >= 1);
}

function sameIgnoringInfiniteBrackets(gold: SequenceValue, prediction: SequenceValue): boolean {
  const infinite = (value: AnswerValue | undefined) => {
    if (value?.kind !== "expression") return false;
    const number = constantValue(value.latex);
    return number !== null && !Number.isFinite(number.re);
  };
  const openMatters = !infinite(gold.items[0]);
  const closeMatters = !infinite(gold.items[1]);
  return (
    (!openMatters || gold.open === prediction.open) && (!closeMatters || gold.close === prediction.close)
  );
}

function compareSets(gold: AnswerValue, prediction: AnswerValue, context: Context): number {
  const items = (value: AnswerValue): AnswerValue[] => (value.kind === "set" ? value.items : [value]);
  const goldItems = items(gold);
  const predictionItems = items(prediction);
  // A bare list "1, 2" against a point "(1, 2)": the model dropped the parentheses, order still matters.
  const point = gold.kind === "sequence" ? gold : prediction.kind === "sequence" ? prediction : null;
  const list = gold.kind === "set" && !gold.braced ? gold : prediction.kind === "set" ? prediction : null;
  if (point && list && point.open === "(" && point.close === ")" && list.kind === "set" && !list.braced) {
    if (point.items.length === list.items.length) {
      return point.items.every((item, index) => compare(item, list.items[index]!, context, false) >= 1)
        ? 1
        : 0;
    }
  }
  const { matched } = matchItems(goldItems, predictionItems, context);
  const size = Math.max(goldItems.length, predictionItems.length);
  if (matched === goldItems.length && matched === predictionItems.length) return 1;
  return context.options.partialCredit && size > 0 ? matched / size : 0;
}

/** Greedy one-to-one matching of equivalent items, in any order. */
function matchItems(gold: readonly AnswerValue[], prediction: readonly AnswerValue[], context: Context) {
  const used = new Set<number>();
  let matched = 0;
  for (const item of gold) {
    const index = prediction.findIndex(
      (candidate, position) => !used.has(position) && compare(item, candidate, context, false) >= 1,
    );
    if (index !== -1) {
      used.add(index);
      matched++;
    }
  }
  return { matched };
}

function textOf(value: AnswerValue): string {
  switch (value.kind) {
    case "text":
      return value.text;
    case "expression":
      return value.latex;
    case "choice":
      return value.letter;
    default:
      return JSON.stringify(value);
  }
}

function compact(text: string): string {
  return text.replace(/\s+/g, "").replace(/[{}]/g, "").toLowerCase();
}
