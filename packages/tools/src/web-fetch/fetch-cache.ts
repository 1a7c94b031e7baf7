import type { WebFetchResult } from "./web-fetch-result.js";

/** Fetched pages of one run or one rollout: a page read twice is fetched once. */
export interface FetchCache {
  get(url: string): Promise<WebFetchResult> | undefined;
  set(url: string, result: Promise<WebFetchResult>): void;
  delete(url: string): void;
  readonly size: number;
}

/** In memory, least recently used first out. Stores promises so that concurrent reads of a page share one fetch. */
export function createFetchCache({ maxEntries = 256 }: { maxEntries?: number } = {}): FetchCache {
  const entries = new Map<string, Promise<WebFetchResult>>();
  return {
    get(url) {
      const hit = entries.get(url);
      if (hit) {
        entries.delete(url);
        entries.set(url, hit);
      }
      return hit;
    },
    set(url, result) {
      entries.delete(url);
      entries.set(url, result);
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
    delete(url) {
      entries.delete(url);
    },
    get size() {
      return entries.size;
    },
  };
}
