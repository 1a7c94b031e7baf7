import type { LearnerStore } from "@tfgrpo/store";
import type { VersionRouter } from "../service/in-process-library-service.js";
import { parseStoredCanary } from "./learner-snapshot.js";

export interface StoredCanaryRouterOptions {
  /** How long a domain's stored canary is reused before it is read again. Default 2 s. */
  cacheMs?: number;
  random?: () => number;
  now?: () => number;
}

/**
 * The canary draw of every serving process (MCP servers, the Bus's library role): the canary the domain's learner
 * stored (version and share), read at most every `cacheMs`, so all processes route alike whichever learner runs
 * where. A canary whose parent is no longer the head is not served (its learner is about to settle it).
 */
export function createStoredCanaryRouter(
  store: Pick<LearnerStore, "getLearner">,
  options: StoredCanaryRouterOptions = {},
): VersionRouter {
  const cacheMs = options.cacheMs ?? 2000;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const cache = new Map<
    string,
    { at: number; canary: { version: number; parent: number | null; share: number } | null }
  >();
  const read = async (domain: string) => {
    const cached = cache.get(domain);
    if (cached && now() - cached.at < cacheMs) return cached.canary;
    const record = await store.getLearner(domain);
    const canary = parseStoredCanary(record?.state ?? null);
    const entry = {
      at: now(),
      canary: canary ? { version: canary.version, parent: canary.parent, share: canary.share } : null,
    };
    // One entry per domain served: bounded by the domains of the workspace.
    cache.set(domain, entry);
    return entry.canary;
  };
  return async ({ domain, head }) => {
    const canary = await read(domain);
    if (canary === null || canary.parent !== head) return null;
    return random() < canary.share ? { version: canary.version, meta: { arm: "canary" } } : null;
  };
}
