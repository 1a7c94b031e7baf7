import { TfgrpoError } from "@tfgrpo/protocol";
import type { RewardFunction } from "./reward-function.js";
import { answerText, normalizeText } from "./text-answer.js";

/**
 * Reward 1 when the gold answer appears in the answer as whole words (gold "5" is not found in "15"), after
 * normalization. Suits short factual answers (web QA) where the model wraps the answer in a sentence.
 * Several acceptable answers may be given in the gold text separated by `|`.
 */
export function createContainsMatchReward(options: { caseSensitive?: boolean } = {}): RewardFunction {
  return (task, finalAnswer) => {
    if (task.answer === undefined) {
      throw new TfgrpoError(
        "invalid_input",
        `task ${task.id}: contains matching needs a ground-truth answer`,
        {
          details: { taskId: task.id, field: "answer" },
        },
      );
    }
    const extracted = answerText(finalAnswer);
    if (extracted === null || extracted === "") {
      return { reward: 0, grade: "fail", extracted, method: "contains", reason: "no answer" };
    }
    const haystack = ` ${normalizeText(extracted, options)} `;
    const golds = task.answer
      .split("|")
      .map((gold) => normalizeText(gold, options))
      .filter((gold) => gold !== "");
    const found = golds.find((gold) => haystack.includes(` ${gold} `));
    return {
      reward: found ? 1 : 0,
      grade: found ? "pass" : "fail",
      extracted,
      method: "contains",
      reason: found ? `contains "${found}"` : "the gold answer does not appear in the answer",
    };
  };
}
