import { TfgrpoError } from "@tfgrpo/protocol";
import type { SearchProvider, SearchResult } from "./search-provider.js";

export interface WebSearch {
  readonly provider: string;
  search(
    query: string,
    options?: { maxResults?: number; signal?: AbortSignal },
  ): Promise<{ results: SearchResult[] }>;
}

export interface WebSearchOptions {
  provider: SearchProvider;
  defaultMaxResults?: number;
  /** Upper bound whatever the model asks for: results cost prompt tokens. */
  maxResultsLimit?: number;
}

export function createWebSearch(options: WebSearchOptions): WebSearch {
  const defaultMaxResults = options.defaultMaxResults ?? 5;
  const limit = options.maxResultsLimit ?? 20;
  return {
    provider: options.provider.name,
    async search(query, searchOptions = {}) {
      const trimmed = query.trim();
      if (!trimmed)
        throw new TfgrpoError("invalid_input", "web_search: query is empty", { details: { field: "query" } });
      const maxResults = Math.max(
        1,
        Math.min(limit, Math.floor(searchOptions.maxResults ?? defaultMaxResults)),
      );
      const results = await options.provider.search(trimmed, {
        maxResults,
        ...(searchOptions.signal ? { signal: searchOptions.signal } : {}),
      });
      // Providers repeat pages under the same URL (mirrors, pagination): one entry per URL.
      const seen = new Set<string>();
      const unique = results.filter((result) => !seen.has(result.url) && seen.add(result.url));
      return { results: unique.slice(0, maxResults) };
    },
  };
}
