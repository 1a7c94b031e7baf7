import { TfgrpoError } from "@tfgrpo/protocol";
import type { RewardFunction } from "./reward-function.js";
import { answerText, normalizeText } from "./text-answer.js";

/** Reward 1 when the answer (boxed part, or the whole response) equals the gold text after normalization. */
export function createExactMatchReward(options: { caseSensitive?: boolean } = {}): RewardFunction {
  return (task, finalAnswer) => {
    if (task.answer === undefined) {
      throw new TfgrpoError("invalid_input", `task ${task.id}: exact matching needs a ground-truth answer`, {
        details: { taskId: task.id, field: "answer" },
      });
    }
    const extracted = answerText(finalAnswer);
    if (extracted === null || extracted === "") {
      return { reward: 0, grade: "fail", extracted, method: "exact", reason: "no answer" };
    }
    const equal = normalizeText(extracted, options) === normalizeText(task.answer, options);
    return {
      reward: equal ? 1 : 0,
      grade: equal ? "pass" : "fail",
      extracted,
      method: "exact",
      reason: equal ? "exact match" : `"${extracted}" differs from the gold answer`,
    };
  };
}
