import type { PageMatch } from "./find-in-page.js";

/** One fetched page as the model reads it; shared by the fetcher and its cache. */
export interface WebFetchResult {
  url: string;
  finalUrl: string;
  status: number;
  contentType: string;
  title: string;
  markdown: string;
  /** True when the body was larger than maxBytes and only its beginning was read. */
  truncated: boolean;
  matches?: PageMatch[];
}
