import { TfgrpoError } from "@tfgrpo/protocol";
import { extractAnswer } from "../math/extract-answer.js";
import { type Judge, verdictReward } from "./create-judge.js";
import { gradeOf, type RewardFunction } from "./reward-function.js";

/**
 * Reward by the LLM judge: correct 1, partial 0.5, incorrect 0. The judge sees the extracted final answer when one
 * is found (shorter, and what is being graded), else the whole response.
 */
export function createJudgeReward(judge: Judge): RewardFunction {
  return async (task, finalAnswer) => {
    if (task.answer === undefined) {
      throw new TfgrpoError(
        "invalid_input",
        `task ${task.id}: the judge needs a ground-truth answer or a pseudo-label`,
        {
          details: { taskId: task.id, field: "answer" },
        },
      );
    }
    if (finalAnswer === null || finalAnswer.trim() === "") {
      return { reward: 0, grade: "fail", extracted: null, method: "judge", reason: "no answer" };
    }
    const extracted = extractAnswer(finalAnswer)?.answer ?? null;
    const decision = await judge.judge({
      question: task.question,
      groundTruth: task.answer,
      response: extracted ?? finalAnswer,
      pseudoLabel: task.meta?.pseudoLabel === true,
    });
    const reward = verdictReward[decision.verdict];
    const votes = Object.entries(decision.votes)
      .filter(([, count]) => count > 0)
      .map(([verdict, count]) => `${verdict} ${count}`)
      .join(", ");
    return {
      reward,
      grade: gradeOf(reward),
      extracted,
      method: "judge",
      reason: `${decision.verdict} (${votes}): ${decision.reason}`,
      usage: decision.usage,
    };
  };
}
