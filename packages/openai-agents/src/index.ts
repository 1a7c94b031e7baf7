export {
  type CallModelInputFilter,
  type ExperienceRun,
  type ExperienceRunner,
  type ExperienceRunnerOptions,
  experienceRunner,
  isExperienceRunner,
  isOpenAIAgent,
  type ModelInputData,
  type OpenAIAgentLike,
  type RunFunction,
  type RunResultLike,
} from "./experience-runner.js";
export { type AgentItem, contentText, itemsToMessages, taskOfItems } from "./items-to-messages.js";
