import { requestJson } from "./request-json.js";
import { scoredResults, scoredResultsSchema } from "./scored-results.js";
import type { SearchProvider } from "./search-provider.js";
import { urlUnder } from "./url-under.js";

export interface SearxngProviderOptions {
  /** The instance, e.g. http://127.0.0.1:8888 (its settings must allow `format=json`). */
  baseUrl: string;
  timeoutMs?: number;
  /** Optional SearXNG categories / language, passed through. */
  categories?: string;
  language?: string;
}

/** A self-hosted SearXNG instance through its JSON API. */
export function createSearxngProvider(options: SearxngProviderOptions): SearchProvider {
  return {
    name: "searxng",
    async search(query, { maxResults, signal }) {
      const url = urlUnder("search", options.baseUrl);
      url.searchParams.set("q", query);
      url.searchParams.set("format", "json");
      if (options.categories) url.searchParams.set("categories", options.categories);
      if (options.language) url.searchParams.set("language", options.language);
      const answer = await requestJson({
        service: "SearXNG",
        url,
        timeoutMs: options.timeoutMs ?? 15_000,
        schema: scoredResultsSchema,
        ...(signal ? { signal } : {}),
      });
      return scoredResults(answer, maxResults);
    },
  };
}
