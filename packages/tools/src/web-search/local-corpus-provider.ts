import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { formatZodIssues, safeParseJson, TfgrpoError } from "@tfgrpo/protocol";
import { z } from "zod";
import { type Bm25Index, createBm25Index, type IndexedDocument } from "./bm25-index.js";
import { htmlToText, looksLikeHtml, markdownToText } from "./html-to-text.js";
import type { SearchProvider } from "./search-provider.js";
import { urlUnder } from "./url-under.js";

/** One corpus document as JSONL lines carry it (the sim world exports its corpus in this form). */
export const corpusDocumentSchema = z.object({
  url: z.string().min(1).describe("Address the document is served at (what web_fetch will be given)"),
  title: z.string().optional(),
  content: z.string().describe("HTML or Markdown"),
});
export type CorpusDocument = z.infer<typeof corpusDocumentSchema>;

export interface LocalCorpusProviderOptions {
  /** A JSONL file, or a folder of .html/.htm/.md/.markdown/.txt/.jsonl files (searched recursively). */
  path?: string;
  documents?: CorpusDocument[];
  /** URL prefix for files of a folder (their relative path is appended); default file:// URLs. */
  baseUrl?: string;
}

export interface LocalCorpusProvider extends SearchProvider {
  /** Number of documents indexed (loads the corpus if it was not yet). */
  size(): Promise<number>;
}

const fileExtensions = new Set([".html", ".htm", ".md", ".markdown", ".txt", ".jsonl"]);

/** BM25 search over a local corpus: the embedded default provider, no network and no service to run. */
export function createLocalCorpusProvider(options: LocalCorpusProviderOptions): LocalCorpusProvider {
  if (!options.path && !options.documents) {
    throw new TfgrpoError("invalid_config", "local corpus provider needs `path` or `documents`");
  }
  let index: Promise<Bm25Index> | undefined;
  const load = () => {
    index ??= loadCorpus(options).then((documents) => createBm25Index(documents));
    // A failed load (missing file) must not be cached forever: the next search tries again.
    index.catch(() => {
      index = undefined;
    });
    return index;
  };
  return {
    name: "local",
    async size() {
      return (await load()).size;
    },
    async search(query, { maxResults }) {
      const hits = (await load()).search(query, maxResults);
      return hits.map((hit) => ({
        title: hit.document.title,
        url: hit.document.url,
        snippet: hit.snippet,
        score: hit.score,
      }));
    },
  };
}

async function loadCorpus(options: LocalCorpusProviderOptions): Promise<IndexedDocument[]> {
  const documents: IndexedDocument[] = (options.documents ?? []).map((document, index) =>
    toIndexed(validate(document, `documents[${index}]`)),
  );
  if (options.path) {
    const root = path.resolve(options.path);
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(root);
    } catch (error) {
      throw new TfgrpoError("invalid_config", `local corpus not found: ${root}`, {
        cause: error,
        details: { path: root },
      });
    }
    if (info.isDirectory()) {
      for (const file of await listFiles(root))
        documents.push(...(await readCorpusFile(file, root, options.baseUrl)));
    } else {
      documents.push(...(await readCorpusFile(root, path.dirname(root), options.baseUrl)));
    }
  }
  return documents;
}

function validate(value: unknown, where: string): CorpusDocument {
  const parsed = corpusDocumentSchema.safeParse(value);
  if (!parsed.success) {
    throw new TfgrpoError(
      "invalid_dataset",
      `corpus document ${where}: ${formatZodIssues(parsed.error.issues)}`,
      {
        details: { where },
      },
    );
  }
  return parsed.data;
}

function toIndexed(document: CorpusDocument): IndexedDocument {
  const extracted = looksLikeHtml(document.content)
    ? htmlToText(document.content)
    : markdownToText(document.content);
  return {
    url: document.url,
    title: document.title ?? extracted.title ?? document.url,
    text: extracted.text,
  };
}

async function listFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const files: string[] = [];
  // Sorted, so that document order (and ties in ranking) do not depend on the file system.
  for (const entry of entries.sort((x, y) => x.name.localeCompare(y.name))) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(full)));
    else if (entry.isFile() && fileExtensions.has(path.extname(entry.name).toLowerCase())) files.push(full);
  }
  return files;
}

async function readCorpusFile(
  file: string,
  root: string,
  baseUrl: string | undefined,
): Promise<IndexedDocument[]> {
  const content = await readFile(file, "utf8");
  if (path.extname(file).toLowerCase() === ".jsonl") {
    const documents: IndexedDocument[] = [];
    content.split("\n").forEach((line, index) => {
      if (!line.trim()) return;
      const where = `${file}:${index + 1}`;
      const parsed = safeParseJson(line);
      if (!parsed.success) {
        throw new TfgrpoError("invalid_dataset", `corpus document ${where}: ${parsed.error}`, {
          details: { file, line: index + 1 },
        });
      }
      documents.push(toIndexed(validate(parsed.value, where)));
    });
    return documents;
  }
  const relative = path.relative(root, file).split(path.sep).join("/");
  const canonical = /<link[^>]+rel=["']canonical["'][^>]*href=["']([^"']+)["']/i.exec(content)?.[1];
  const url = canonical ?? (baseUrl ? urlUnder(relative, baseUrl).href : pathToFileURL(file).href);
  const extracted = /\.html?$/i.test(file) ? htmlToText(content) : markdownToText(content);
  return [{ url, title: extracted.title ?? path.basename(file), text: extracted.text }];
}
