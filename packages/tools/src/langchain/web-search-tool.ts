import { z } from "zod";
import type { SearchResult } from "../web-search/search-provider.js";
import type { WebSearch } from "../web-search/web-search.js";
import { createModelTool, type ModelTool } from "./model-facing-tool.js";

export const webSearchInputSchema = z.object({
  query: z.string().min(1).describe("What to search for: a few precise keywords work best"),
  max_results: z
    .number()
    .int()
    .min(1)
    .max(10)
    .optional()
    .describe("How many results to return (1-10, default 5)"),
});

/** A numbered list of title, URL and snippet: the form the prompt contract promises the model. */
export function searchResultsForModel(query: string, results: readonly SearchResult[]): string {
  if (results.length === 0) return `No results for "${query}". Try other or fewer keywords.`;
  return results
    .map(
      (result, index) =>
        `${index + 1}. ${result.title}\n   URL: ${result.url}\n   ${result.snippet.replace(/\s+/g, " ")}`,
    )
    .join("\n\n");
}

export function createWebSearchTool(
  search: WebSearch,
  options: { description?: string } = {},
): ModelTool<typeof webSearchInputSchema> {
  return createModelTool({
    name: "web_search",
    description:
      options.description ??
      "Search the web. Returns a numbered list of results with title, URL and a snippet; read a result with web_fetch.",
    schema: webSearchInputSchema,
    async run({ query, max_results }, { signal }) {
      const { results } = await search.search(query, {
        ...(max_results === undefined ? {} : { maxResults: max_results }),
        ...(signal ? { signal } : {}),
      });
      return searchResultsForModel(query, results);
    },
  });
}
