import { z } from "zod";
import { decodeEntities } from "./html-to-text.js";
import { readApiKey, requestJson } from "./request-json.js";
import type { SearchProvider } from "./search-provider.js";
import { urlUnder } from "./url-under.js";

const braveAnswerSchema = z.object({
  web: z
    .object({
      results: z.array(
        z.object({ title: z.string().default(""), url: z.string(), description: z.string().nullish() }),
      ),
    })
    .optional(),
});

export interface BraveProviderOptions {
  apiKeyEnv?: string;
  baseUrl?: string;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** Brave Search API (web results). Its descriptions carry <strong> highlights, removed here. */
export function createBraveProvider(options: BraveProviderOptions = {}): SearchProvider {
  const apiKeyEnv = options.apiKeyEnv ?? "BRAVE_API_KEY";
  return {
    name: "brave",
    async search(query, { maxResults, signal }) {
      const apiKey = readApiKey("Brave", apiKeyEnv, options.env ?? process.env);
      const base = options.baseUrl ?? "https://api.search.brave.com";
      const url = urlUnder("res/v1/web/search", base);
      url.searchParams.set("q", query);
      url.searchParams.set("count", String(Math.min(maxResults, 20)));
      const answer = await requestJson({
        service: "Brave",
        url,
        headers: { "x-subscription-token": apiKey },
        timeoutMs: options.timeoutMs ?? 20_000,
        schema: braveAnswerSchema,
        secrets: [apiKey],
        ...(signal ? { signal } : {}),
      });
      return (answer.web?.results ?? []).slice(0, maxResults).map((result) => ({
        title: stripTags(result.title),
        url: result.url,
        snippet: stripTags(result.description ?? ""),
      }));
    },
  };
}

function stripTags(text: string): string {
  return decodeEntities(text.replace(/<[^>]*>/g, ""));
}
