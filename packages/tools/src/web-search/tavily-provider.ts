import { z } from "zod";
import { readApiKey, requestJson } from "./request-json.js";
import type { SearchProvider } from "./search-provider.js";

const tavilyAnswerSchema = z.object({
  results: z.array(
    z.object({
      title: z.string().default(""),
      url: z.string(),
      content: z.string().nullish(),
      score: z.number().nullish(),
    }),
  ),
});

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
        url: new URL("search", withSlash(options.baseUrl ?? "https://api.tavily.com")),
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}` },
        body: { query, max_results: maxResults, search_depth: options.searchDepth ?? "basic" },
        timeoutMs: options.timeoutMs ?? 20_000,
        schema: tavilyAnswerSchema,
        secrets: [apiKey],
        ...(signal ? { signal } : {}),
      });
      return answer.results.slice(0, maxResults).map((result) => ({
        title: result.title,
        url: result.url,
        snippet: result.content ?? "",
        ...(typeof result.score === "number" ? { score: result.score } : {}),
      }));
    },
  };
}

function withSlash(url: string): string {
  return url.endsWith("/") ? url : `${url}/`;
}
