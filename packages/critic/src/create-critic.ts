import {
  addUsage,
  type ExperienceLine,
  emptyUsageTotals,
  type GroupAdviceResult,
  mapWithConcurrency,
  type RewardResult,
  type Task,
  TfgrpoError,
  type Trajectory,
  type UsageTotals,
  usageSchema,
} from "@tfgrpo/protocol";
import type { CriticLogger } from "./critic-logger.js";
import type { CriticModels } from "./critic-models.js";
import { homogeneousReason } from "./group-filter.js";
import { answersEquivalent, type EquivalenceOptions } from "./math/answers-equivalent.js";
import { extractAnswer } from "./math/extract-answer.js";
import { advantageAnswerSchema, advantagePrompt } from "./prompts/advantage-prompt.js";
import type { RenderTrajectoryOptions } from "./prompts/render-trajectory.js";
import { type Evaluation, summaryPrompt } from "./prompts/summary-prompt.js";
import { createContainsMatchReward } from "./rewards/contains-match-reward.js";
import type { Judge } from "./rewards/create-judge.js";
import { createExactMatchReward } from "./rewards/exact-match-reward.js";
import { createJudgeReward } from "./rewards/judge-reward.js";
import { majorityVote } from "./rewards/majority-vote.js";
import { createMathReward } from "./rewards/math-reward.js";
import { gradeOf, type RewardFunction, type RewardOutcome } from "./rewards/reward-function.js";
import { answerText, normalizeText } from "./rewards/text-answer.js";
import { type DroppedOperation, toProposals } from "./to-proposals.js";
import { screenCopiedProposals } from "./untrusted-texts.js";

/** One group as `groupAdvice` takes it: what a `tfgrpo.critic.advantage` request names, read. */
export interface GroupAdviceRequest {
  runId: string;
  groupId: string;
  task: Task;
  /** The group's trajectories, each with its reward. */
  trajectories: readonly Trajectory[];
  /** The library's entries the proposals may edit. */
  experiences: readonly ExperienceLine[];
  /** Set when rewards came from a pseudo-label rather than ground truth. */
  pseudoLabel?: string | null;
}

export interface CreateCriticOptions {
  /** Role "critic" answers summaries and advantages; role "judge" is used through `judge`. */
  models: CriticModels;
  /** The LLM judge, for tasks rewarded by "judge" and (optionally) for pseudo-labels. */
  judge?: Judge;
  logger?: CriticLogger;
  now?: () => number;
  /**
   * Reward function per domain (e.g. a user module for "web"). Otherwise: `task.meta.reward` ("math", "exact",
   * "contains", "judge") if set, the math verifier for domain "math", the judge when there is one, else contains.
   */
  rewards?: Partial<Record<string, RewardFunction>>;
  /** Without ground truth, let the judge grade each answer against the majority label (default: the reward fn). */
  pseudoLabelJudge?: boolean;
  math?: EquivalenceOptions;
  /** Summaries of one group in flight at once (default 8). */
  summaryConcurrency?: number;
  /** Operations kept per group (default 3, the paper's). */
  maxOperations?: number;
  /** Word limit stated in the advantage prompt (default 32). */
  maxWords?: number;
  render?: RenderTrajectoryOptions;
  /** Calls for one summary before giving up on an empty answer (default 2). */
  summaryAttempts?: number;
}

export interface RewardAnswer {
  trajectoryId: string;
  finalAnswer: string | null;
}

export interface RewardOptions {
  /** "required": fail without an answer; "none": use the group's majority answer; default: whichever applies. */
  groundTruth?: "required" | "none";
  /** The trajectories behind the answers, for reward functions that look at them. */
  trajectories?: readonly Trajectory[];
}

export interface RewardResponse {
  rewards: RewardResult[];
  /** The majority answer used as label, when rewards came from one. */
  pseudoLabel: string | null;
  usage: UsageTotals;
}

export interface TrajectorySummary {
  trajectoryId: string;
  reward: number;
  summary: string;
  /** Experiences the group varied that this attempt was not shown (evidence for the comparison). */
  withheld?: readonly string[];
}

export interface AdvantageResult {
  proposals: GroupAdviceResult["proposals"];
  dropped: DroppedOperation[];
  usage: UsageTotals;
}

export interface Critic {
  /** Rewards every answer of one task (one group): by ground truth, or by the group's majority without one. */
  reward(task: Task, answers: readonly RewardAnswer[], options?: RewardOptions): Promise<RewardResponse>;
  /** Stage 1: a step-by-step summary of one rewarded trajectory. */
  summarize(
    task: Task,
    trajectory: Trajectory,
    experiences: readonly ExperienceLine[],
    options?: {
      groundTruth?: string | null;
      pseudoLabel?: boolean;
      signal?: AbortSignal;
      /** Cap the rendered trajectory (a client's, untrusted and unbounded): `dataLimits.trajectory`. */
      maxTrajectoryChars?: number;
    },
  ): Promise<{ summary: string; usage: UsageTotals }>;
  /** Stage 2: at most 3 operations from comparing the group's summaries, as proposals. */
  advantage(
    task: Task,
    summaries: readonly TrajectorySummary[],
    experiences: readonly ExperienceLine[],
    groundTruth: string | null,
    options?: { groupId?: string; pseudoLabel?: boolean; signal?: AbortSignal },
  ): Promise<AdvantageResult>;
  /**
   * Filter -> summaries (concurrently) -> advantage for one group. A homogeneous group, or a model answer that stays
   * unusable after repair and retries, gives no proposals and says why in `skipped`; it never throws for those.
   */
  groupAdvice(request: GroupAdviceRequest, options?: { signal?: AbortSignal }): Promise<GroupAdviceResult>;
}

type BuiltinReward = "math" | "exact" | "contains" | "judge";

export function createCritic(options: CreateCriticOptions): Critic {
  const { models, judge, logger } = options;
  const now = options.now ?? Date.now;
  const summaryAttempts = Math.max(1, options.summaryAttempts ?? 2);
  const builtins: Record<Exclude<BuiltinReward, "judge">, RewardFunction> & {
    judge: RewardFunction | undefined;
  } = {
    math: createMathReward(options.math),
    exact: createExactMatchReward(),
    contains: createContainsMatchReward(),
    judge: judge ? createJudgeReward(judge) : undefined,
  };

  const rewardFunctionFor = (task: Task): { fn: RewardFunction; name: string } => {
    const requested = task.meta?.reward;
    if (typeof requested === "string" && requested in builtins) {
      const fn = builtins[requested as BuiltinReward];
      if (!fn) {
        throw new TfgrpoError(
          "invalid_config",
          `task ${task.id} asks for reward "${requested}", but no judge is configured`,
          {
            details: { taskId: task.id, field: "meta.reward" },
          },
        );
      }
      return { fn, name: requested };
    }
    const custom = options.rewards?.[task.domain];
    if (custom) return { fn: custom, name: "custom" };
    if (task.domain === "math") return { fn: builtins.math, name: "math" };
    if (builtins.judge) return { fn: builtins.judge, name: "judge" };
    return { fn: builtins.contains, name: "contains" };
  };

  const toResult = (trajectoryId: string, outcome: RewardOutcome, pseudoLabel: boolean): RewardResult => ({
    trajectoryId,
    reward: outcome.reward,
    grade: outcome.grade,
    extracted: outcome.extracted,
    method: outcome.method,
    ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}),
    ...(pseudoLabel ? { pseudoLabel: true } : {}),
  });

  const reward: Critic["reward"] = async (task, answers, rewardOptions = {}) => {
    const byId = new Map((rewardOptions.trajectories ?? []).map((trajectory) => [trajectory.id, trajectory]));
    const { fn, name } = rewardFunctionFor(task);
    let usage = emptyUsageTotals();
    const score = async (scoredTask: Task, answer: RewardAnswer, scorer: RewardFunction) => {
      const outcome = await scorer(scoredTask, answer.finalAnswer, byId.get(answer.trajectoryId));
      if (outcome.usage) usage = addUsage(usage, outcome.usage);
      return outcome;
    };

    const pseudo =
      rewardOptions.groundTruth === "none" ||
      (task.answer === undefined && rewardOptions.groundTruth !== "required");
    if (!pseudo) {
      if (task.answer === undefined) {
        throw new TfgrpoError(
          "invalid_input",
          `task ${task.id} has no ground-truth answer, and one is required`,
          {
            details: { taskId: task.id, field: "answer" },
          },
        );
      }
      const outcomes = await Promise.all(answers.map((answer) => score(task, answer, fn)));
      return {
        rewards: outcomes.map((outcome, index) => toResult(answers[index]!.trajectoryId, outcome, false)),
        pseudoLabel: null,
        usage,
      };
    }

    // No ground truth: the group's majority answer is the label (the paper's no-GT ablation).
    const mathLike = name === "math";
    const extracted = answers.map((answer) =>
      mathLike ? (extractAnswer(answer.finalAnswer)?.answer ?? null) : answerText(answer.finalAnswer),
    );
    const vote = majorityVote(extracted, (a, b) =>
      mathLike ? answersEquivalent(a, b, options.math).score >= 1 : normalizeText(a) === normalizeText(b),
    );
    if (vote.label === null) {
      return {
        rewards: answers.map((answer) =>
          toResult(
            answer.trajectoryId,
            {
              reward: 0,
              grade: "fail",
              extracted: null,
              method: `${name}+majority`,
              reason: "no answers to vote on",
            },
            true,
          ),
        ),
        pseudoLabel: null,
        usage,
      };
    }
    const labelled: Task = { ...task, answer: vote.label, meta: { ...task.meta, pseudoLabel: true } };
    const scorer = options.pseudoLabelJudge && builtins.judge ? builtins.judge : fn;
    const voteNote = `pseudo-label ${vote.label} (majority ${vote.count}/${vote.voters}${vote.tie ? ", tied" : ""})`;
    const outcomes = await Promise.all(answers.map((answer) => score(labelled, answer, scorer)));
    return {
      rewards: outcomes.map((outcome, index) =>
        toResult(
          answers[index]!.trajectoryId,
          {
            ...outcome,
            method: `${outcome.method}+majority`,
            reason: outcome.reason ? `${voteNote}: ${outcome.reason}` : voteNote,
          },
          true,
        ),
      ),
      pseudoLabel: vote.label,
      usage,
    };
  };

  const summarize: Critic["summarize"] = async (task, trajectory, experiences, summaryOptions = {}) => {
    if (trajectory.reward === undefined) {
      throw new TfgrpoError(
        "invalid_input",
        `trajectory ${trajectory.id} has no reward: reward it before summarizing`,
        {
          details: { trajectoryId: trajectory.id, field: "reward" },
        },
      );
    }
    const messages = summaryPrompt({
      trajectory,
      evaluation: evaluationOf(trajectory),
      groundTruth:
        summaryOptions.groundTruth === undefined ? (task.answer ?? null) : summaryOptions.groundTruth,
      ...(summaryOptions.pseudoLabel ? { pseudoLabel: true } : {}),
      experiences,
      ...(options.render || summaryOptions.maxTrajectoryChars !== undefined
        ? {
            render: {
              ...options.render,
              ...(summaryOptions.maxTrajectoryChars === undefined
                ? {}
                : { maxChars: summaryOptions.maxTrajectoryChars }),
            },
          }
        : {}),
    });
    let usage = emptyUsageTotals();
    for (let attempt = 1; attempt <= summaryAttempts; attempt++) {
      const answer = await models.complete("critic", {
        messages,
        ...(summaryOptions.signal ? { signal: summaryOptions.signal } : {}),
      });
      usage = addUsage(usage, answer.usage);
      const summary = cleanSummary(answer.text);
      if (summary !== "") return { summary, usage };
      logger?.warn?.("critic summary empty", { trajectoryId: trajectory.id, attempt });
    }
    throw new TfgrpoError(
      "model_error",
      `critic: the summary of trajectory ${trajectory.id} was empty ${summaryAttempts} time(s)`,
      { details: { trajectoryId: trajectory.id, usage } },
    );
  };

  const advantage: Critic["advantage"] = async (
    task,
    summaries,
    experiences,
    groundTruth,
    advantageOptions = {},
  ) => {
    const groupId = advantageOptions.groupId ?? task.id;
    const result = await models.structured("critic", {
      messages: advantagePrompt({
        question: task.question,
        attempts: summaries,
        groundTruth,
        ...(advantageOptions.pseudoLabel ? { pseudoLabel: true } : {}),
        experiences,
        ...(options.maxOperations !== undefined ? { maxOperations: options.maxOperations } : {}),
        ...(options.maxWords !== undefined ? { maxWords: options.maxWords } : {}),
      }),
      schema: advantageAnswerSchema,
      name: "group_advantage",
      description: "At most 3 operations on the experience library, learned by comparing the attempts",
      ...(advantageOptions.signal ? { signal: advantageOptions.signal } : {}),
    });
    const { proposals, dropped } = toProposals(result.value.operations, {
      groupId,
      taskId: task.id,
      experiences,
      ...(options.maxOperations !== undefined ? { maxOperations: options.maxOperations } : {}),
    });
    for (const item of dropped) {
      logger?.warn?.("critic operation dropped", {
        groupId,
        index: item.index,
        option: item.operation.option,
        reason: item.reason,
      });
    }
    return { proposals, dropped, usage: addUsage(emptyUsageTotals(), result.usage) };
  };

  const groupAdvice: Critic["groupAdvice"] = async (request, adviceOptions = {}) => {
    const startedAt = now();
    const { groupId, task, trajectories, experiences } = request;
    const missing = trajectories.find((trajectory) => trajectory.reward === undefined);
    if (missing) {
      throw new TfgrpoError("invalid_input", `group ${groupId}: trajectory ${missing.id} has no reward`, {
        details: { groupId, trajectoryId: missing.id, field: "reward" },
      });
    }
    let usage = emptyUsageTotals();
    const skip = (reason: string): GroupAdviceResult => {
      logger?.info?.("critic group skipped", { groupId, reason });
      return { groupId, summaries: [], proposals: [], skipped: reason, usage };
    };
    const homogeneous = homogeneousReason(trajectories.map((trajectory) => trajectory.reward!));
    if (homogeneous) return skip(homogeneous);

    const pseudoLabel = request.pseudoLabel ?? null;
    const groundTruth = pseudoLabel ?? task.answer ?? null;
    const signal = adviceOptions.signal ? { signal: adviceOptions.signal } : {};
    let summaries: TrajectorySummary[];
    try {
      summaries = await mapWithConcurrency(
        trajectories,
        options.summaryConcurrency ?? 8,
        async (trajectory) => {
          try {
            const { summary, usage: spent } = await summarize(task, trajectory, experiences, {
              groundTruth,
              ...(pseudoLabel !== null ? { pseudoLabel: true } : {}),
              ...signal,
            });
            usage = addUsage(usage, spent);
            return {
              trajectoryId: trajectory.id,
              reward: trajectory.reward!,
              summary,
              ...(trajectory.experiencesWithheld?.length ? { withheld: trajectory.experiencesWithheld } : {}),
            };
          } catch (error) {
            usage = addUsage(usage, usageOf(error));
            throw Object.assign(new Error("summary failed"), { trajectoryId: trajectory.id, inner: error });
          }
        },
      );
    } catch (error) {
      const { trajectoryId, inner } = error as { trajectoryId: string; inner: unknown };
      if (!TfgrpoError.hasCode(inner, "model_error")) throw inner;
      logger?.warn?.("critic summary unusable", { groupId, trajectoryId, error: inner.message });
      return skip(`summary of trajectory ${trajectoryId} unusable: ${inner.message}`);
    }

    let outcome: AdvantageResult;
    try {
      outcome = await advantage(task, summaries, experiences, groundTruth, {
        groupId,
        ...(pseudoLabel !== null ? { pseudoLabel: true } : {}),
        ...signal,
      });
    } catch (error) {
      if (!TfgrpoError.hasCode(error, "model_error")) throw error;
      usage = addUsage(usage, usageOf(error));
      logger?.warn?.("critic advantage unusable", { groupId, error: error.message });
      return { ...skip(`group advantage unusable: ${error.message}`), summaries };
    }
    usage = addUsage(usage, outcome.usage);
    const screened = screenCopiedProposals(outcome.proposals, trajectories);
    for (const refused of screened.refused) {
      logger?.warn?.("critic proposal refused", { groupId, reason: refused.reason });
    }
    outcome = {
      ...outcome,
      proposals: screened.kept,
      dropped: [
        ...outcome.dropped,
        ...screened.refused.map(({ proposal, reason }) => ({
          index: -1,
          operation: {
            option: proposal.op,
            experience: proposal.text ?? "",
            reason: proposal.reason ?? "",
          } as never,
          reason: `refused: ${reason}`,
        })),
      ],
    };
    const skipped =
      outcome.proposals.length > 0
        ? null
        : outcome.dropped.length > 0
          ? `every proposed operation was dropped: ${outcome.dropped.map((item) => item.reason).join("; ")}`
          : "the critic proposed no operation";
    logger?.info?.("critic group advised", {
      groupId,
      proposals: outcome.proposals.length,
      dropped: outcome.dropped.length,
      durationMs: now() - startedAt,
    });
    return { groupId, summaries, proposals: outcome.proposals, skipped, usage };
  };

  return { reward, summarize, advantage, groupAdvice };
}

function evaluationOf(trajectory: Trajectory): Evaluation {
  const grade = trajectory.rewardInfo?.grade ?? gradeOf(trajectory.reward ?? 0);
  return grade === "pass" ? "correct" : grade === "partial" ? "partial" : "wrong";
}

/** Drops a code fence some models wrap plain text in. */
function cleanSummary(text: string): string {
  return text
    .trim()
    .replace(/^```[a-z]*\n([\s\S]*?)\n?```$/i, "$1")
    .trim();
}

/**
 * Usage a failed model call reports in its error details: the models layer puts the summed usage of every attempt
 * there, with the attempts listed (so a structured call that failed 3 times counts as 3 calls).
 */
function usageOf(error: unknown): UsageTotals {
  if (!TfgrpoError.isInstance(error)) return emptyUsageTotals();
  const parsed = usageSchema.safeParse(error.details?.usage);
  if (!parsed.success) return emptyUsageTotals();
  const attempts = error.details?.attempts;
  const calls = Array.isArray(attempts) && attempts.length > 0 ? attempts.length : 1;
  return { ...addUsage(emptyUsageTotals(), parsed.data), calls };
}
