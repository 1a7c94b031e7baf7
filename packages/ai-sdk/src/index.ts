export { environmentTools } from "./environment-tools.js";
export {
  type ExperienceMiddleware,
  type ExperienceMiddlewareOptions,
  type ExperienceRun,
  experienceMiddleware,
  type FinishedRun,
} from "./experience-middleware.js";
