import { z } from "zod";
import type { SearchResult } from "./search-provider.js";

/** The answer SearXNG and Tavily both give: results with a title, a URL, a content snippet and a score. */
export const scoredResultsSchema = z.object({
  results: z.array(
    z.object({
      title: z.string().default(""),
      url: z.string(),
      content: z.string().nullish(),
      score: z.number().nullish(),
    }),
  ),
});

/** The first `maxResults` of such an answer as search results (a missing snippet is empty, a missing score left out). */
export function scoredResults(
  answer: z.infer<typeof scoredResultsSchema>,
  maxResults: number,
): SearchResult[] {
  return answer.results.slice(0, maxResults).map((result) => ({
    title: result.title,
    url: result.url,
    snippet: result.content ?? "",
    ...(typeof result.score === "number" ? { score: result.score } : {}),
  }));
}
