import { z } from "zod";
import type { WebFetch, WebFetchResult } from "../web-fetch/web-fetch.js";
import { createModelTool, type ModelTool } from "./model-facing-tool.js";

export const webFetchInputSchema = z.object({
  url: z.string().min(1).describe("The http(s) URL of the page to read"),
  find: z
    .string()
    .min(1)
    .optional()
    .describe("A phrase to look for: only the paragraphs around its occurrences are returned"),
});

/** The page as the model reads it: a short header, then Markdown (or the matches of `find`), within maxChars. */
export function pageForModel(page: WebFetchResult, find: string | undefined, maxChars: number): string {
  const header = [
    `Title: ${page.title}`,
    `URL: ${page.finalUrl}${page.finalUrl !== page.url ? ` (redirected from ${page.url})` : ""}`,
    `Status: ${page.status}`,
    ...(page.truncated ? ["Note: the page was too large and only its beginning was read."] : []),
  ].join("\n");
  let body: string;
  if (find !== undefined) {
    const matches = page.matches ?? [];
    if (matches.length === 0) {
      body = `No matches for "${find}" on this page. It starts:\n\n${page.markdown.slice(0, 1500)}`;
    } else {
      const loose =
        matches[0]!.kind === "words"
          ? " (the exact phrase is absent; these paragraphs hold all its words)"
          : "";
      body = `${matches.length} match(es) for "${find}"${loose}:\n\n${matches
        .map((match, index) => `--- match ${index + 1} ---\n${match.text}`)
        .join("\n\n")}`;
    }
  } else {
    body = page.markdown || "(the page has no readable text)";
  }
  const text = `${header}\n\n${body}`;
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n\n[... ${text.length - maxChars} more characters not shown; use "find" to look for a phrase ...]`;
}

export function createWebFetchTool(
  fetcher: WebFetch,
  options: { description?: string; maxChars?: number } = {},
): ModelTool<typeof webFetchInputSchema> {
  const maxChars = options.maxChars ?? 20_000;
  return createModelTool({
    name: "web_fetch",
    description:
      options.description ??
      'Read a web page as Markdown. Give "find" to get only the paragraphs around a phrase on a long page.',
    schema: webFetchInputSchema,
    async run({ url, find }, { signal }) {
      const page = await fetcher.fetch(url, {
        ...(find === undefined ? {} : { find }),
        ...(signal ? { signal } : {}),
      });
      return pageForModel(page, find, maxChars);
    },
  });
}
