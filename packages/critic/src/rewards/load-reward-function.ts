import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  formatZodIssues,
  type Task,
  TfgrpoError,
  type Trajectory,
  unreadableFileReason,
} from "@tfgrpo/protocol";
import { z } from "zod";
import { gradeOf, type RewardFunction, type RewardOutcome } from "./reward-function.js";

const rewardValueSchema = z.number().finite().min(0, "must be at least 0").max(1, "must be at most 1");

/** What a user's reward function may return: a number in [0, 1], or an object with it. */
export const userRewardResultSchema = z.union([
  rewardValueSchema,
  z.strictObject({
    reward: rewardValueSchema,
    grade: z.enum(["pass", "partial", "fail"]).optional(),
    reason: z.string().optional(),
    extracted: z.string().nullable().optional(),
  }),
]);

type UserRewardFunction = (task: Task, finalAnswer: string | null, trajectory?: Trajectory) => unknown;

/**
 * Loads a user reward function from a JS or TS module (TS needs a loader such as tsx, which the CLI has) whose
 * default export is `(task, finalAnswer, trajectory?) => number | { reward, grade?, reason? }` or a promise of one.
 * What it returns is validated on every call: a wrong value fails with the module, the task and the field named.
 */
export async function loadRewardFunction(
  modulePath: string,
  options: { cwd?: string } = {},
): Promise<RewardFunction> {
  const absolute = path.resolve(options.cwd ?? process.cwd(), modulePath);
  const shown = path.relative(options.cwd ?? process.cwd(), absolute) || absolute;
  const unreadable = unreadableFileReason(absolute);
  if (unreadable !== null) {
    throw new TfgrpoError("not_found", `reward module ${shown}: ${unreadable}`, {
      details: { module: absolute, reason: unreadable },
    });
  }
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(pathToFileURL(absolute).href)) as Record<string, unknown>;
  } catch (error) {
    throw new TfgrpoError(
      "invalid_config",
      `reward module ${shown}: cannot import it: ${(error as Error).message}`,
      {
        cause: error,
        details: { module: absolute },
      },
    );
  }
  // CommonJS modules imported from ESM put module.exports on `default`; a transpiled one may nest it once more.
  let candidate = loaded.default;
  if (candidate && typeof candidate === "object" && "default" in candidate) {
    candidate = (candidate as { default: unknown }).default;
  }
  if (typeof candidate !== "function") {
    throw new TfgrpoError(
      "invalid_config",
      `reward module ${shown}: the default export must be a function (task, finalAnswer, trajectory?) => reward, got ${typeof candidate}`,
      { details: { module: absolute, field: "default" } },
    );
  }
  const userFunction = candidate as UserRewardFunction;
  const method = `module:${path.basename(absolute)}`;

  return async (task, finalAnswer, trajectory): Promise<RewardOutcome> => {
    let value: unknown;
    try {
      value = await userFunction(task, finalAnswer, trajectory);
    } catch (error) {
      throw new TfgrpoError(
        "invalid_config",
        `reward module ${shown} threw on task ${task.id}: ${(error as Error)?.message ?? String(error)}`,
        { cause: error, details: { module: absolute, taskId: task.id } },
      );
    }
    const parsed = userRewardResultSchema.safeParse(value);
    if (!parsed.success) {
      throw new TfgrpoError(
        "invalid_config",
        `reward module ${shown} returned ${describe(value)} for task ${task.id}: ${formatZodIssues(parsed.error.issues)}`,
        { details: { module: absolute, taskId: task.id } },
      );
    }
    if (typeof parsed.data === "number") {
      return { reward: parsed.data, grade: gradeOf(parsed.data), extracted: finalAnswer, method };
    }
    const { reward, grade, reason, extracted } = parsed.data;
    return {
      reward,
      grade: grade ?? gradeOf(reward),
      extracted: extracted === undefined ? finalAnswer : extracted,
      method,
      ...(reason !== undefined ? { reason } : {}),
    };
  };
}

function describe(value: unknown): string {
  if (value === undefined) return "undefined";
  try {
    const text = JSON.stringify(value);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    return typeof value;
  }
}
