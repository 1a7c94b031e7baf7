export {
  type ExplorationSlotOptions,
  type ServedSelectionPlan,
  withExplorationSlot,
} from "./service/exploration-slot.js";
export {
  type CreateLibraryServiceOptions,
  createLibraryService,
  type VersionRouter,
} from "./service/in-process-library-service.js";
export { createLibraryRole } from "./service/library-role.js";
export {
  type GetExperiencesReply,
  type GetExperiencesRequest,
  type GetLibraryRequest,
  getExperiencesReplySchema,
  getExperiencesRequestSchema,
  getLibraryRequestSchema,
  type LibraryService,
  type LibraryServiceEvent,
  type ReportOutcomeReply,
  type ReportOutcomeRequest,
  reportOutcomeReplySchema,
  reportOutcomeRequestSchema,
  type ServedExperience,
  servedExperienceSchema,
} from "./service/library-service.js";
