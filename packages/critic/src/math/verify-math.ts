import { gradeOf, type RewardGrade } from "../rewards/reward-function.js";
import { answersEquivalent, type EquivalenceOptions } from "./answers-equivalent.js";
import { extractAnswer } from "./extract-answer.js";

export interface MathVerdict {
  reward: number;
  grade: RewardGrade;
  /** The answer found in the response (null when there was none). */
  extracted: string | null;
  reason: string;
}

/**
 * The math verifier: finds the final answer in a response (last `\boxed{}`, "answer is ...", or the last number)
 * and decides whether it equals the gold answer (see answersEquivalent). A gold answer may itself be boxed.
 */
export function verifyMath(
  gold: string,
  response: string | null | undefined,
  options: EquivalenceOptions = {},
): MathVerdict {
  const goldAnswer = /\\(?:boxed|fbox)/.test(gold) ? (extractAnswer(gold)?.answer ?? gold) : gold;
  const found = extractAnswer(response);
  if (found === null) return { reward: 0, grade: "fail", extracted: null, reason: "no final answer found" };
  if (found.answer.trim() === "") {
    return { reward: 0, grade: "fail", extracted: found.answer, reason: `empty answer (${found.source})` };
  }
  const { score, reason } = answersEquivalent(goldAnswer, found.answer, options);
  return {
    reward: score,
    grade: gradeOf(score),
    extracted: found.answer,
    reason: `${reason} [${found.source}]`,
  };
}
