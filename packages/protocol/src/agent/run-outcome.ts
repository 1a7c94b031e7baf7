import { TfgrpoError } from "../errors.js";

/** What a team's reward function may return: a reward in [0, 1], a success flag, or both with feedback. */
export type RunOutcomeLike = number | boolean | { reward?: number; success?: boolean; feedback?: string };

export interface RunOutcome {
  reward: number;
  success: boolean;
  feedback?: string;
}

/** A reward function's value as `{ reward, success }`: success is reward >= 1 unless given, reward is 0/1 of success. */
export function toRunOutcome(value: RunOutcomeLike, where: string): RunOutcome {
  if (typeof value === "boolean") return { reward: value ? 1 : 0, success: value };
  const object = typeof value === "number" ? { reward: value } : value;
  if (object === null || typeof object !== "object") {
    throw new TfgrpoError(
      "invalid_input",
      `${where} returned ${JSON.stringify(value)}: return a number in [0, 1], a boolean, or { reward, success, feedback }`,
    );
  }
  const reward = object.reward ?? (object.success === undefined ? undefined : object.success ? 1 : 0);
  if (reward === undefined || !Number.isFinite(reward) || reward < 0 || reward > 1) {
    throw new TfgrpoError(
      "invalid_input",
      `${where} returned reward ${String(reward)}: give a reward in [0, 1] or success (true/false)`,
    );
  }
  return {
    reward,
    success: object.success ?? reward >= 1,
    ...(object.feedback === undefined ? {} : { feedback: object.feedback }),
  };
}
