export {
  createExperienceHooks,
  type ExperienceHooks,
  type ExperienceHooksOptions,
  type MessagesState,
  type OutcomeInput,
} from "./experience-hooks.js";
export {
  type ExperienceMiddlewareOptions,
  type ExperienceRun,
  experienceMiddleware,
  experienceStateKey,
  finalText,
} from "./experience-middleware.js";
export { LibraryBaseStore, type LibraryBaseStoreOptions } from "./library-base-store.js";
export { messagesToTrajectory, type TrajectoryMessage } from "./messages-to-trajectory.js";
export { firstHumanText, toBaseMessages } from "./to-base-messages.js";
