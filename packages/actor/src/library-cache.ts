import { type Bus, type LibrarySnapshot, libraryGet } from "@tfgrpo/protocol";
import { LRUCache } from "lru-cache";

/** Reads one immutable library version; null when it does not exist. */
export type LibraryLoader = (domain: string, version: number) => Promise<LibrarySnapshot | null>;

/** A cached reader; `statsRevision` (from the rollout request) pins the stats a snapshot must carry. */
export type CachedLibraryLoader = (
  domain: string,
  version: number,
  statsRevision?: string,
) => Promise<LibrarySnapshot | null>;

export interface LibraryCacheOptions {
  /** Versions kept at most (least recently used go first). */
  maxVersions?: number;
  /**
   * A cached snapshot is reloaded after this long. A version's entries never change, but their stats (shown,
   * success, sumDelta: what UCB ranks by) are updated by credit assignment while the head stays the same.
   */
  maxAgeMs?: number;
  now?: () => number;
}

/**
 * Caches library snapshots by (domain, version): versions are immutable, so rollouts of one version share one read.
 * Concurrent reads of one version share one load; a failed load or a missing version is not cached.
 */
export function createLibraryCache(
  load: LibraryLoader,
  options: LibraryCacheOptions = {},
): CachedLibraryLoader {
  const maxVersions = options.maxVersions ?? 16;
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  const now = options.now ?? Date.now;
  // The age is checked here rather than by lru-cache's ttl, so that it follows the injected clock exactly.
  const cache = new LRUCache<string, { loading: Promise<LibrarySnapshot | null>; loadedAt: number }>({
    max: maxVersions,
  });
  return (domain, version, statsRevision) => {
    const key = `${domain}@${version}#${statsRevision ?? ""}`;
    const hit = cache.get(key);
    // With a stats revision the snapshot is exactly right for as long as the revision is asked for: no expiry, so
    // a run's prompts do not depend on timing. Without one, stats are refreshed by age.
    if (hit && (statsRevision !== undefined || now() - hit.loadedAt < maxAgeMs)) return hit.loading;
    const entry = { loading: load(domain, version), loadedAt: now() };
    cache.set(key, entry);
    entry.loading.then(
      (snapshot) => {
        // A missing version may be committed later (the head moves); only real snapshots are kept.
        if (snapshot === null && cache.get(key) === entry) cache.delete(key);
      },
      () => {
        if (cache.get(key) === entry) cache.delete(key);
      },
    );
    return entry.loading;
  };
}

/** Reads libraries over the Bus (`tfgrpo.library.get`), as actors on other machines do. */
export function createBusLibraryLoader(bus: Bus, options: { timeoutMs?: number } = {}): LibraryLoader {
  return (domain, version) =>
    bus.request(libraryGet, { domain, version }, { timeoutMs: options.timeoutMs ?? 30_000 });
}
