import { addUsage, emptyUsageTotals, TfgrpoError, type UsageTotals } from "@tfgrpo/protocol";
import type { CriticLogger } from "../critic-logger.js";
import type { CriticModels } from "../critic-models.js";
import { type JudgeVerdict, judgePrompt, judgeVerdictSchema } from "../prompts/judge-prompt.js";

export type Verdict = JudgeVerdict["verdict"];

export interface JudgeDecision {
  verdict: Verdict;
  reason: string;
  votes: Record<Verdict, number>;
  /** Samples whose answer stayed unusable after the models layer's repair and retries. */
  failures: number;
  usage: UsageTotals;
}

export interface Judge {
  judge(input: {
    question: string;
    groundTruth: string;
    response: string;
    pseudoLabel?: boolean;
    signal?: AbortSignal;
  }): Promise<JudgeDecision>;
}

export interface CreateJudgeOptions {
  models: CriticModels;
  /** Independent judge calls whose majority decides (default 1). Ties go to the stricter verdict. */
  samples?: number;
  logger?: CriticLogger;
}

// Lower is stricter: a tie between "correct" and "incorrect" is not a pass.
const strictness: Verdict[] = ["incorrect", "partial", "correct"];

/**
 * An LLM judge on the "judge" role: temperature 0, the verdict parsed strictly (an enum, validated by zod with the
 * models layer's repair and retries), the majority of `samples` calls deciding. Throws a model_error only when no
 * sample gave a usable verdict: a reward made up from nothing would teach the library the wrong lesson.
 */
export function createJudge(options: CreateJudgeOptions): Judge {
  const samples = Math.max(1, Math.floor(options.samples ?? 1));
  return {
    async judge(input) {
      const messages = judgePrompt(input);
      const results = await Promise.allSettled(
        Array.from({ length: samples }, (_, index) =>
          options.models.structured("judge", {
            messages,
            schema: judgeVerdictSchema,
            name: "judge_verdict",
            description: "Whether the response matches the ground truth",
            temperature: 0,
            // Distinct seeds let a provider that is not deterministic at temperature 0 still vote independently.
            seed: index,
            ...(input.signal ? { signal: input.signal } : {}),
          }),
        ),
      );
      const votes: Record<Verdict, number> = { correct: 0, partial: 0, incorrect: 0 };
      const reasons = new Map<Verdict, string>();
      let usage = emptyUsageTotals();
      let failures = 0;
      let lastError: unknown;
      for (const result of results) {
        if (result.status === "rejected") {
          if (!TfgrpoError.hasCode(result.reason, "model_error")) throw result.reason;
          failures++;
          lastError = result.reason;
          continue;
        }
        usage = addUsage(usage, result.value.usage);
        votes[result.value.value.verdict]++;
        if (!reasons.has(result.value.value.verdict))
          reasons.set(result.value.value.verdict, result.value.value.reason);
      }
      if (failures === samples) {
        throw new TfgrpoError(
          "model_error",
          `judge: no usable verdict in ${samples} call(s): ${(lastError as Error).message}`,
          {
            cause: lastError,
            details: { samples },
          },
        );
      }
      if (failures > 0) options.logger?.warn?.("judge sample unusable", { failures, samples });
      let verdict: Verdict = "incorrect";
      for (const candidate of strictness) if (votes[candidate] > votes[verdict]) verdict = candidate;
      return { verdict, reason: reasons.get(verdict) ?? "", votes, failures, usage };
    },
  };
}

export const verdictReward: Record<Verdict, number> = { correct: 1, partial: 0.5, incorrect: 0 };
