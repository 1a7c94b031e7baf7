import { type Bus, type LibrarySnapshot, libraryGet } from "@tfgrpo/protocol";

/** Reads one immutable library version; null when it does not exist. */
export type LibraryLoader = (domain: string, version: number) => Promise<LibrarySnapshot | null>;

/**
 * Caches library snapshots by (domain, version). Versions are immutable, so a cached snapshot never goes stale; the
 * cache only bounds memory. Concurrent reads of one version share one load; a failed load is not cached.
 */
export function createLibraryCache(
  load: LibraryLoader,
  options: { maxVersions?: number } = {},
): LibraryLoader {
  const maxVersions = options.maxVersions ?? 16;
  const cache = new Map<string, Promise<LibrarySnapshot | null>>();
  return (domain, version) => {
    const key = `${domain}@${version}`;
    const hit = cache.get(key);
    if (hit) {
      // Map order is insertion order: re-inserting marks the entry as recently used.
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    const loading = load(domain, version);
    cache.set(key, loading);
    loading.then(
      (snapshot) => {
        // A missing version may be committed later (the head moves); only real snapshots are kept.
        if (snapshot === null && cache.get(key) === loading) cache.delete(key);
      },
      () => {
        if (cache.get(key) === loading) cache.delete(key);
      },
    );
    while (cache.size > maxVersions) cache.delete(cache.keys().next().value as string);
    return loading;
  };
}

/** Reads libraries over the Bus (`tfgrpo.library.get`), as actors on other machines do. */
export function createBusLibraryLoader(bus: Bus, options: { timeoutMs?: number } = {}): LibraryLoader {
  return (domain, version) =>
    bus.request(libraryGet, { domain, version }, { timeoutMs: options.timeoutMs ?? 30_000 });
}
