import type { ExperienceIndex } from "@tfgrpo/actor";
import type { LibrarySnapshot } from "@tfgrpo/protocol";
import { LRUCache } from "lru-cache";

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
  /** Versions kept at most (least recently used go first). Default 32. */
  maxVersions?: number;
  /**
   * ... and at most this many bytes of indexes (entries' texts and embeddings, `estimateIndexBytes`), least recently
   * used going first; the index just loaded is kept even alone over the bound. Default 256 MiB.
   */
  maxBytes?: number;
  /** The bytes an index holds; default `estimateIndexBytes`. */
  sizeOf?: (served: ServedIndex) => number;
  now?: () => number;
}

/** The cache of served indexes, with its current size. */
export interface IndexCache {
  (domain: string, version: number): Promise<ServedIndex | null>;
  /** Versions held. */
  readonly size: number;
  /** Bytes of the loaded indexes held, about. */
  readonly bytes: number;
}

export const defaultIndexCacheBytes = 256 * 1024 * 1024;

/**
 * About what an index holds: each entry's texts (UTF-16) and record, and its embedding (plus the embedding of a
 * `whenNot` clause) as 4-byte floats.
 */
export function estimateIndexBytes(served: ServedIndex): number {
  let bytes = 0;
  for (const entry of served.snapshot.experiences) {
    bytes += 2 * (entry.text.length + JSON.stringify(entry.provenance ?? null).length) + 512;
    bytes += 4 * served.index.dimensions * (entry.scope?.whenNot ? 2 : 1);
  }
  return bytes;
}

interface Entry {
  current: Promise<ServedIndex | null>;
  loadedAt: number;
  /** How long the last load + build took. */
  loadMs: number;
  refreshing: boolean;
  /** Bytes of the loaded index; 0 while loading. */
  bytes: number;
}

/**
 * The selection index of each served version, built once and reused: versions are immutable, only their entries'
 * stats (what UCB ranks by) change. A stale index is refreshed in the background while it keeps serving
 * (stale-while-revalidate); only the first request of a version waits for its load. Concurrent first requests share
 * one load; a failed or missing load is not kept, a failed refresh keeps the old index.
 */
export function createIndexCache(options: IndexCacheOptions): IndexCache {
  const maxVersions = options.maxVersions ?? 32;
  const maxBytes = options.maxBytes ?? defaultIndexCacheBytes;
  const sizeOf = options.sizeOf ?? estimateIndexBytes;
  const factor = options.refreshCostFactor ?? 50;
  const now = options.now ?? Date.now;
  const entries = new LRUCache<string, Entry>({
    max: maxVersions,
    maxSize: maxBytes,
    // lru-cache sizes are positive integers; clamped to the bound so that the index just loaded is kept even alone
    // over it (lru-cache would refuse it), and a loading entry counts 1.
    sizeCalculation: (entry) => Math.max(1, Math.min(maxBytes, Math.ceil(entry.bytes))),
  });

  /** Sets an entry's size (re-inserting it, the most recently used), which evicts the least recently used beyond the bounds. */
  const account = (key: string, entry: Entry, size: number) => {
    entry.bytes = size;
    entries.delete(key);
    entries.set(key, entry);
  };
  const remove = (key: string, entry: Entry) => {
    if (entries.peek(key) === entry) entries.delete(key);
  };

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
          // Evicted meanwhile: not counted again.
          const key = `${domain}@${version}`;
          if (entries.peek(key) === entry) account(key, entry, sizeOf(fresh.served));
        }
        entry.refreshing = false;
      },
      () => {
        entry.refreshing = false;
      },
    );
  };

  const get = (domain: string, version: number) => {
    const key = `${domain}@${version}`;
    // A get marks the entry as recently used.
    const entry = entries.get(key);
    if (entry) {
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
      bytes: 0,
    };
    entries.set(key, created);
    loading.then(
      (result) => {
        // A missing version may be committed later; only real ones are kept.
        if (result === null) {
          remove(key, created);
          return;
        }
        created.loadedAt = now();
        created.loadMs = result.loadMs;
        if (entries.peek(key) === created) account(key, created, sizeOf(result.served));
      },
      () => remove(key, created),
    );
    return created.current;
  };
  return Object.defineProperties(get, {
    size: { get: () => entries.size },
    bytes: { get: () => entries.calculatedSize },
  }) as IndexCache;
}
