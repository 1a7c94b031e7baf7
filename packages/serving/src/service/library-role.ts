import { type DefineRoleOptions, defineRole, type RoleDefinition } from "@tfgrpo/protocol";
import type { LibraryStore } from "@tfgrpo/store";
import type { LibraryService } from "./library-service.js";

/**
 * The library's Bus endpoints, for `tfgrpo serve --role library`: `tfgrpo.library.experiences` and
 * `tfgrpo.library.outcome` answer from the library service, `tfgrpo.library.get` (whole versions, as actors and the
 * critic read them) from the store. All three are request/reply; any worker of the queue group answers, so several
 * library workers on one database share the traffic (reports stay exactly-once: the store decides, not the worker).
 */
export function createLibraryRole(
  service: LibraryService,
  store: Pick<LibraryStore, "getHead" | "getVersion">,
  options: DefineRoleOptions = {},
): RoleDefinition<"library"> {
  return defineRole(
    "library",
    {
      get: async ({ domain, version }) =>
        version === "head" ? store.getHead(domain) : store.getVersion(domain, version),
      experiences: (request) => service.getExperiences(request),
      outcome: (request) => service.reportOutcome(request),
    },
    options,
  );
}
