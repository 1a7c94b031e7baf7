import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import {
  createContainsMatchReward,
  createExactMatchReward,
  loadRewardFunction,
  type RewardFunction,
  verifyMath,
} from "@tfgrpo/critic";
import { requireReadableFile, safeParseJson, type Task, TfgrpoError } from "@tfgrpo/protocol";
import { z } from "zod";
import { rewardMethods as methods } from "../cli-options/reward-methods.js";
import type { RewardCommandOptions } from "./reward-command-options.js";

type Method = (typeof methods)[number];

// Gold answers come from datasets where numbers are often numbers; predictions may be missing (null).
const caseLineSchema = z
  .object({
    gold: z.union([z.string(), z.number()], { error: "must be a string or a number" }),
    pred: z.union([z.string(), z.number(), z.null()], { error: "must be a string, a number or null" }),
    question: z.string().optional(),
  })
  .catchall(z.unknown());

export interface RewardCasesOptions {
  method: Method;
  /**
   * Opens the JSONL lines (a file or stdin). Called only once the reward function is loaded: readline drops the
   * lines it reads before someone iterates them.
   */
  openLines: () => AsyncIterable<string>;
  /** Shown in error messages (`cases.jsonl:3`). */
  source: string;
  /** For method "module": the reward function module. */
  module?: string;
  partialCredit?: boolean;
  write: (line: string) => void;
}

export interface RewardCasesSummary {
  cases: number;
  passed: number;
  partial: number;
  failed: number;
}

/**
 * Scores `{"gold", "pred"}` lines with one reward method and writes `{"gold","pred","reward","extracted"}` per line,
 * so a grader can be checked in bulk. A malformed line stops the run with its file and line number.
 */
export async function rewardCases(options: RewardCasesOptions): Promise<RewardCasesSummary> {
  const fn = await rewardFunctionFor(options);
  const summary: RewardCasesSummary = { cases: 0, passed: 0, partial: 0, failed: 0 };
  let lineNumber = 0;
  for await (const raw of options.openLines()) {
    lineNumber++;
    if (raw.trim() === "") continue;
    const parsed = safeParseJson(raw, caseLineSchema);
    if (!parsed.success) {
      throw new TfgrpoError("invalid_input", `${options.source}:${lineNumber}: ${parsed.error}`, {
        details: { file: options.source, line: lineNumber },
      });
    }
    const gold = String(parsed.value.gold);
    const pred = parsed.value.pred === null ? null : String(parsed.value.pred);
    const task: Task = {
      id: `${options.source}:${lineNumber}`,
      domain: "cli",
      question: parsed.value.question ?? "(no question given)",
      answer: gold,
    };
    const outcome = await fn(task, pred);
    summary.cases++;
    if (outcome.grade === "pass") summary.passed++;
    else if (outcome.grade === "partial") summary.partial++;
    else summary.failed++;
    options.write(
      `${JSON.stringify({ gold: parsed.value.gold, pred: parsed.value.pred, reward: outcome.reward, extracted: outcome.extracted })}\n`,
    );
  }
  return summary;
}

async function rewardFunctionFor(options: RewardCasesOptions): Promise<RewardFunction> {
  switch (options.method) {
    case "math":
      return (task, finalAnswer) => ({
        ...verifyMath(task.answer ?? "", finalAnswer, { partialCredit: options.partialCredit ?? false }),
        method: "math",
      });
    case "exact":
      return createExactMatchReward();
    case "contains":
      return createContainsMatchReward();
    case "module":
      if (!options.module) {
        throw new TfgrpoError("invalid_input", "reward module: give the module with --module PATH", {
          details: { field: "module" },
        });
      }
      return loadRewardFunction(options.module);
  }
}

/** `tfgrpo reward <method>`: scores the cases of a JSONL file (or stdin), one line out per case, a summary on stderr. */
export async function rewardCommand(method: string, flags: RewardCommandOptions): Promise<void> {
  const parsedMethod = z.enum(methods).safeParse(method);
  if (!parsedMethod.success) {
    throw new TfgrpoError(
      "invalid_input",
      `reward: unknown method "${method}"; use one of ${methods.join(", ")}`,
      { details: { field: "method" } },
    );
  }
  if (flags.input) {
    requireReadableFile(flags.input, { what: "reward cases", code: "not_found", option: "--input" });
  }
  const input = flags.input;
  const summary = await rewardCases({
    method: parsedMethod.data,
    openLines: () =>
      createInterface({
        input: input ? createReadStream(input, { encoding: "utf8" }) : process.stdin,
        crlfDelay: Number.POSITIVE_INFINITY,
      }),
    source: flags.input ?? "stdin",
    ...(flags.module ? { module: flags.module } : {}),
    partialCredit: flags.partialCredit,
    write: (line) => process.stdout.write(line),
  });
  process.stderr.write(
    `reward ${parsedMethod.data}: ${summary.cases} case(s), ${summary.passed} pass, ${summary.partial} partial, ${summary.failed} fail\n`,
  );
}
