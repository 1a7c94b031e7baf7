export {
  type ExperienceMiddleware,
  type ExperienceMiddlewareOptions,
  type ExperienceRun,
  experienceMiddleware,
  type FinishedRun,
} from "./experience-middleware.js";
