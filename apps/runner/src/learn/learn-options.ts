import { defaultValidationSamples } from "@tfgrpo/curator";
import { defaultExposureBudget, gateRuleSchema } from "@tfgrpo/protocol";
import { z } from "zod";

export const learnOptionsSchema = z.object({
  runId: z.string().min(1),
  domain: z.string().min(1),
  epochs: z.number().int().min(1).default(3),
  groupSize: z
    .number()
    .int()
    .min(1)
    .default(5)
    .describe("G: rollouts per task; 1 is single-trajectory reflection"),
  batchSize: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("Tasks per learning step; default: the whole train set"),
  concurrency: z.number().int().min(1).default(16).describe("Rollouts and role calls in flight"),
  seed: z.number().int().default(1),
  stratifyBy: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Task field batches are stratified by (e.g. meta.family); default meta.family when tasks carry it; "none"',
    ),
  failureShare: z
    .number()
    .min(0)
    .max(1)
    .default(0.2)
    .describe("Share of each batch given to earlier failures of the run (latest group mean reward below 1)"),
  compactTrajectoriesAfter: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      "Compact the run's trajectories once they are more than this many steps old: messages and tool text dropped; ids, rewards, usage and entries shown kept (the critic's summaries are in the run state)",
    ),
  temperature: z.number().min(0).max(2).default(0.7).describe("Rollout temperature while learning"),
  exposure: z
    .enum(["varied", "off"])
    .default("varied")
    .describe(
      "varied: entries whose effect is uncertain are shown to a balanced part of each group and withheld from the rest, so each is credited by a contrast; off: every attempt sees the same entries (the paper's loop)",
    ),
  exposureActiveShare: z
    .number()
    .min(0)
    .max(1)
    .default(defaultExposureBudget)
    .describe(
      "Exposure budget: share of groups in which an entry whose decision is settled is varied (open ones always are, wherever relevant)",
    ),
  settledTaskAttempts: z
    .number()
    .int()
    .min(0)
    .refine(
      (value) => value !== 1,
      "settledTaskAttempts must be 0 (off) or at least 2 (a contrast needs two arms)",
    )
    .default(2)
    .describe(
      "Attempts for a task whose every earlier group had equal rewards (no mixed group, no nonzero contrast): default 2 (still two arms for the contrasts of entries relevant to it); 0: the full G. Varied exposure only: the paper's loop keeps G",
    ),
  evalTemperature: z.number().min(0).max(2).default(0.3),
  valK: z
    .number()
    .int()
    .min(1)
    .default(defaultValidationSamples)
    .describe(
      "Samples per validation task (the gate's error rates at this budget: bench/gate-error-rates.bench.ts in packages/curator)",
    ),
  gate: gateRuleSchema
    .optional()
    .describe(
      "sequential: validation in rounds (one sample per task each), decided as soon as the evidence settles; paired-t: one look at --val-k samples per task; paper: the paper's keep-unless-worse at --val-k samples, no test; absent: the curator's configured gate (sequential by default), validation in rounds",
    ),
  valMaxK: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      "Sequential gate: the most samples per validation task (default: enough for 120 paired samples, 2 to 32)",
    ),
  valAhead: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      "Sequential gate: rounds sampled at once ahead of its looks (default: as many as fill the concurrency with the rollouts a round needs)",
    ),
  precheckSize: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe("Validation tasks of the cheap pre-check; 0 = off"),
  groundTruth: z.enum(["required", "none"]).default("required"),
  mode: z.enum(["tools", "direct"]).default("tools"),
  budgetUsd: z
    .number()
    .positive()
    .optional()
    .describe("Stop cleanly before a step once the run has spent this much"),
  baselineEachRound: z.boolean().default(true).describe("Evaluate the empty library after every round"),
  maxInfraFailureRate: z
    .number()
    .min(0)
    .max(1)
    .default(0.5)
    .describe(
      "Circuit breaker: stop the run (interrupted, resumable) when more than this share of a phase's rollouts fail on the infrastructure",
    ),
  inconclusiveInfraFailureRate: z
    .number()
    .min(0)
    .max(1)
    .default(0.2)
    .describe("A validation with more than this share of infrastructure failures gives no gate decision"),
  onConflict: z
    .enum(["revalidate", "stop"])
    .default("revalidate")
    .describe(
      "When another runner commits to the library while a candidate is validated: re-validate on the new head, or stop",
    ),
});
export type LearnOptions = z.infer<typeof learnOptionsSchema>;
export type LearnOptionsInput = z.input<typeof learnOptionsSchema>;
