export {
  createExperienceHooks,
  type ExperienceHooks,
  type ExperienceHooksOptions,
  type MessagesState,
  type OutcomeInput,
} from "./experience-hooks.js";
export { LibraryBaseStore, type LibraryBaseStoreOptions } from "./library-base-store.js";
export { messagesToTrajectory, type TrajectoryMessage } from "./messages-to-trajectory.js";
