import { type Bus, libraryExperiences, libraryOutcome } from "@tfgrpo/protocol";
import type { LibraryService } from "./library-service.js";

/** The two calls an agent makes, which is all `@tfgrpo/langgraph`'s hooks need. */
export type LibraryClient = Pick<LibraryService, "getExperiences" | "reportOutcome">;

/**
 * The library service of another process, over the Bus (`tfgrpo serve --role library`): an agent anywhere on NATS
 * gets experiences and reports outcomes exactly as in process. Errors come back as `TfgrpoError`s with their code
 * (`invalid_input`, `not_found`, `conflict`; `unauthorized` and `rate_limited` from the role's client gate).
 * `clientToken` names the client to a role configured with client tokens.
 */
export function createBusLibraryClient(
  bus: Bus,
  options: { timeoutMs?: number; clientToken?: string } = {},
): LibraryClient {
  const request = { timeoutMs: options.timeoutMs ?? 30_000 };
  const token = options.clientToken === undefined ? {} : { clientToken: options.clientToken };
  return {
    getExperiences: (input) => bus.request(libraryExperiences, { ...input, ...token }, request),
    reportOutcome: (input) => bus.request(libraryOutcome, { ...input, ...token }, request),
  };
}
