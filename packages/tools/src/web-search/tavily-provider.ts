import { readApiKey, requestJson } from "./request-json.js";
import { scoredResults, scoredResultsSchema } from "./scored-results.js";
import type { SearchProvider } from "./search-provider.js";
import { urlUnder } from "./url-under.js";

export interface TavilyProviderOptions {
  /** Name of the environment variable holding the key (the key itself never enters config or logs). */
  apiKeyEnv?: string;
  baseUrl?: string;
  timeoutMs?: number;
  searchDepth?: "basic" | "advanced";
  env?: NodeJS.ProcessEnv;
}

export function createTavilyProvider(options: TavilyProviderOptions = {}): SearchProvider {
  const apiKeyEnv = options.apiKeyEnv ?? "TAVILY_API_KEY";
  return {
    name: "tavily",
    async search(query, { maxResults, signal }) {
      const apiKey = readApiKey("Tavily", apiKeyEnv, options.env ?? process.env);
      const answer = await requestJson({
        service: "Tavily",
        url: urlUnder("search", options.baseUrl ?? "https://api.tavily.com"),
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}` },
        body: { query, max_results: maxResults, search_depth: options.searchDepth ?? "basic" },
        timeoutMs: options.timeoutMs ?? 20_000,
        schema: scoredResultsSchema,
        secrets: [apiKey],
        ...(signal ? { signal } : {}),
      });
      return scoredResults(answer, maxResults);
    },
  };
}
