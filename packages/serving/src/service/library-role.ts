import { type DefineRoleOptions, defineRole, type RoleDefinition } from "@tfgrpo/protocol";
import type { LibraryStore } from "@tfgrpo/store";
import { admitOnBus, type ClientGateOptions, createClientGate } from "./client-gate.js";
import type { LibraryService } from "./library-service.js";

export interface LibraryRoleOptions extends DefineRoleOptions, ClientGateOptions {}

/**
 * The library's Bus endpoints, for `tfgrpo serve --role library`: `tfgrpo.library.experiences` and
 * `tfgrpo.library.outcome` answer from the library service, `tfgrpo.library.get` (whole versions, as actors and the
 * critic read them) from the store. All three are request/reply; any worker of the queue group answers, so several
 * library workers on one database share the traffic (reports stay exactly-once: the store decides, not the worker).
 *
 * Agents' calls (experiences, outcome) pass the client gate first: with `clientTokens`, a call must carry a known
 * `clientToken` (else `unauthorized`) and its selection and outcome are stored with the client's name; each client
 * (else each connection) has its own rate limit, beyond which a call fails at once with `rate_limited`, naming the
 * limit, so a flooding client is turned away cheaply and the others are served.
 */
export function createLibraryRole(
  service: LibraryService,
  store: Pick<LibraryStore, "getHead" | "getVersion">,
  options: LibraryRoleOptions = {},
): RoleDefinition<"library"> {
  const gate = createClientGate(options);
  const { clientTokens: _tokens, rateLimit: _limit, now: _now, ...roleOptions } = options;
  return defineRole(
    "library",
    {
      get: async ({ domain, version }) =>
        version === "head" ? store.getHead(domain) : store.getVersion(domain, version),
      experiences: async ({ clientToken, ...request }, context) => {
        const client = admitOnBus(gate, clientToken, context.caller, "tfgrpo.library.experiences");
        return service.getExperiences(request, client === undefined ? {} : { client });
      },
      outcome: async ({ clientToken, ...request }, context) => {
        const client = admitOnBus(gate, clientToken, context.caller, "tfgrpo.library.outcome");
        return service.reportOutcome(request, client === undefined ? {} : { client });
      },
    },
    roleOptions,
  );
}
