import { z } from "zod";

export const searchResultSchema = z.object({
  title: z.string(),
  url: z.string(),
  snippet: z.string(),
  score: z.number().optional(),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

export interface SearchOptions {
  maxResults: number;
  signal?: AbortSignal;
}

/** One search backend. New backends implement this and nothing else changes. */
export interface SearchProvider {
  readonly name: string;
  search(query: string, options: SearchOptions): Promise<SearchResult[]>;
}
