import { LRUCache } from "lru-cache";
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
  const entries = new LRUCache<string, Promise<WebFetchResult>>({ max: maxEntries });
  return {
    get: (url) => entries.get(url),
    set: (url, result) => {
      entries.set(url, result);
    },
    delete: (url) => {
      entries.delete(url);
    },
    get size() {
      return entries.size;
    },
  };
}
