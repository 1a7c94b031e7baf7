import { z } from "zod";
import { requestJson } from "./request-json.js";
import type { SearchProvider } from "./search-provider.js";

const searxngAnswerSchema = z.object({
  results: z.array(
    z.object({
      url: z.string(),
      title: z.string().default(""),
      content: z.string().nullish(),
      score: z.number().nullish(),
    }),
  ),
});

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
      const url = new URL("search", options.baseUrl.endsWith("/") ? options.baseUrl : `${options.baseUrl}/`);
      url.searchParams.set("q", query);
      url.searchParams.set("format", "json");
      if (options.categories) url.searchParams.set("categories", options.categories);
      if (options.language) url.searchParams.set("language", options.language);
      const answer = await requestJson({
        service: "SearXNG",
        url,
        timeoutMs: options.timeoutMs ?? 15_000,
        schema: searxngAnswerSchema,
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
