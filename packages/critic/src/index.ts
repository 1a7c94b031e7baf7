export {
  type AdvantageResult,
  type CreateCriticOptions,
  type Critic,
  createCritic,
  type GroupAdviceRequest,
  type RewardAnswer,
  type RewardOptions,
  type RewardResponse,
  type TrajectorySummary,
} from "./create-critic.js";
export type { CriticLogger } from "./critic-logger.js";
export type { CriticModels } from "./critic-models.js";
export type { CriticReader } from "./critic-reader.js";
export { createCriticRole } from "./critic-role.js";
export {
  filterGroups,
  type GroupFilterResult,
  homogeneousReason,
  type RewardedGroup,
  type SkippedGroup,
} from "./group-filter.js";
export { answersEquivalent, type Equivalence, type EquivalenceOptions } from "./math/answers-equivalent.js";
export { type AnswerSource, type ExtractedAnswer, extractAnswer } from "./math/extract-answer.js";
export { type NormalizedAnswer, normalizeAnswer } from "./math/normalize-answer.js";
export { type MathVerdict, verifyMath } from "./math/verify-math.js";
export {
  type AdvantageAnswer,
  type AdvantageOperation,
  advantageAnswerSchema,
  advantageOperationSchema,
  advantagePrompt,
} from "./prompts/advantage-prompt.js";
export {
  type DirectExperiencesAnswer,
  type DirectExperiencesPromptInput,
  directExperiencesAnswerSchema,
  directExperiencesPrompt,
} from "./prompts/direct-experiences-prompt.js";
export { type JudgeVerdict, judgePrompt, judgeVerdictSchema } from "./prompts/judge-prompt.js";
export {
  type OnlineCase,
  type OnlineDifference,
  type OnlineReflectionAnswer,
  type OnlineReflectionPromptInput,
  onlineDifferenceSchema,
  onlineReflectionAnswerSchema,
  onlineReflectionPrompt,
} from "./prompts/online-reflection-prompt.js";
export {
  capData,
  dataLimits,
  dataNotInstructions,
  escapeData,
  type QuoteDataOptions,
  quoteData,
} from "./prompts/quote-data.js";
export {
  experienceLine,
  type RenderTrajectoryOptions,
  renderTrajectory,
} from "./prompts/render-trajectory.js";
export { type Evaluation, summaryPrompt } from "./prompts/summary-prompt.js";
export { createContainsMatchReward } from "./rewards/contains-match-reward.js";
export {
  type CreateJudgeOptions,
  createJudge,
  type Judge,
  type JudgeDecision,
  type Verdict,
} from "./rewards/create-judge.js";
export { createExactMatchReward } from "./rewards/exact-match-reward.js";
export { createJudgeReward } from "./rewards/judge-reward.js";
export { loadRewardFunction, userRewardResultSchema } from "./rewards/load-reward-function.js";
export { type MajorityVote, majorityVote } from "./rewards/majority-vote.js";
export { createMathReward } from "./rewards/math-reward.js";
export {
  gradeOf,
  type RewardFunction,
  type RewardGrade,
  type RewardOutcome,
} from "./rewards/reward-function.js";
export {
  type OnlineProposals,
  type ToOnlineProposalsOptions,
  toOnlineProposals,
} from "./to-online-proposals.js";
export { type DroppedOperation, type ToProposalsOptions, toProposals } from "./to-proposals.js";
export {
  type DirectExperiencesResult,
  type WriteDirectExperiencesOptions,
  writeDirectExperiences,
} from "./write-direct-experiences.js";
