import type { ExperienceIndex } from "@tfgrpo/actor";
import type { LibrarySnapshot } from "@tfgrpo/protocol";

export interface ServedIndex {
  snapshot: LibrarySnapshot;
  index: ExperienceIndex;
}

export interface IndexCacheOptions {
  load: (domain: string, version: number) => Promise<LibrarySnapshot | null>;
  build: (snapshot: LibrarySnapshot) => Promise<ExperienceIndex>;
  /** After this long a version is reloaded (its entries' stats change); the old index serves until then. */
  maxAgeMs: number;
  /**
   * A reload also waits at least this many times as long as the last load took, so refreshing stays a small share
   * of the process's time however large the library (reading and indexing 10,000 entries takes a good part of a
   * second on a busy machine, and SQLite reads block the event loop). Default 50: at most ~2%.
   */
  refreshCostFactor?: number;
  /** Versions kept at most (least recently used go first). */
  maxVersions?: number;
  now?: () => number;
}

interface Entry {
  current: Promise<ServedIndex | null>;
  loadedAt: number;
  /** How long the last load + build took. */
  loadMs: number;
  refreshing: boolean;
}

/**
 * The selection index of each served version, built once and reused: versions are immutable, only their entries'
 * stats (what UCB ranks by) change. A stale index is refreshed in the background while it keeps serving
 * (stale-while-revalidate); only the first request of a version waits for its load. Concurrent first requests share
 * one load; a failed or missing load is not kept, a failed refresh keeps the old index.
 */
export function createIndexCache(
  options: IndexCacheOptions,
): (domain: string, version: number) => Promise<ServedIndex | null> {
  const maxVersions = options.maxVersions ?? 32;
  const factor = options.refreshCostFactor ?? 50;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  const load = async (domain: string, version: number) => {
    const start = now();
    const snapshot = await options.load(domain, version);
    if (!snapshot) return null;
    const served: ServedIndex = { snapshot, index: await options.build(snapshot) };
    return { served, loadMs: now() - start };
  };

  const refresh = (entry: Entry, domain: string, version: number) => {
    entry.refreshing = true;
    load(domain, version).then(
      (fresh) => {
        if (fresh) {
          entry.current = Promise.resolve(fresh.served);
          entry.loadedAt = now();
          entry.loadMs = fresh.loadMs;
        }
        entry.refreshing = false;
      },
      () => {
        entry.refreshing = false;
      },
    );
  };

  return (domain, version) => {
    const key = `${domain}@${version}`;
    const entry = entries.get(key);
    if (entry) {
      // Map order is insertion order: re-inserting marks the entry as recently used.
      entries.delete(key);
      entries.set(key, entry);
      const age = now() - entry.loadedAt;
      if (!entry.refreshing && age >= Math.max(options.maxAgeMs, factor * entry.loadMs)) {
        refresh(entry, domain, version);
      }
      return entry.current;
    }
    const loading = load(domain, version);
    const created: Entry = {
      current: loading.then((result) => result?.served ?? null),
      loadedAt: now(),
      loadMs: 0,
      refreshing: false,
    };
    entries.set(key, created);
    loading.then(
      (result) => {
        // A missing version may be committed later; only real ones are kept.
        if (result === null) {
          if (entries.get(key) === created) entries.delete(key);
          return;
        }
        created.loadedAt = now();
        created.loadMs = result.loadMs;
      },
      () => {
        if (entries.get(key) === created) entries.delete(key);
      },
    );
    while (entries.size > maxVersions) entries.delete(entries.keys().next().value as string);
    return created.current;
  };
}
