import { TfgrpoError } from "@tfgrpo/protocol";
import type { EquivalenceOptions } from "../math/answers-equivalent.js";
import { verifyMath } from "../math/verify-math.js";
import type { RewardFunction } from "./reward-function.js";

/** Reward by the math verifier: 1 when the final answer equals the task's answer (see verifyMath). */
export function createMathReward(options: EquivalenceOptions = {}): RewardFunction {
  return (task, finalAnswer) => {
    if (task.answer === undefined) {
      throw new TfgrpoError("invalid_input", `task ${task.id}: the math reward needs a ground-truth answer`, {
        details: { taskId: task.id, field: "answer" },
      });
    }
    const verdict = verifyMath(task.answer, finalAnswer, options);
    return { ...verdict, method: "math" };
  };
}
