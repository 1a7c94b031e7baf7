import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Task } from "@tfgrpo/protocol";
import type { CorpusDocument } from "../corpus.js";

/** One JSON object per line in the dataset form `loadDataset` reads ({id, domain, question, answer, meta}). */
export async function writeSuiteJsonl(file: string, tasks: readonly Task[]): Promise<void> {
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  const lines = tasks.map((task) =>
    JSON.stringify({
      id: task.id,
      domain: task.domain,
      question: task.question,
      answer: task.answer,
      meta: task.meta,
    }),
  );
  await writeFile(file, `${lines.join("\n")}\n`, "utf8");
}

/** A document's URL where a sim server serves it: `<corpusUrl>/<host>/<path>`. */
export function servedCorpusUrl(corpusUrl: string, documentUrl: string): string {
  const url = new URL(documentUrl);
  return `${corpusUrl.replace(/\/$/, "")}/${url.host}${url.pathname}`;
}

/** JSONL text of the simulated web: `{"url","title","content"}` lines, URLs canonical or served from `baseUrl`. */
export function corpusJsonl(
  documents: readonly CorpusDocument[],
  options: { baseUrl?: string } = {},
): string {
  const lines = documents.map((doc) =>
    JSON.stringify({
      url: options.baseUrl ? servedCorpusUrl(options.baseUrl, doc.url) : doc.url,
      title: doc.title,
      content: doc.content,
    }),
  );
  return `${lines.join("\n")}\n`;
}

/**
 * The simulated web as JSONL lines `{"url","title","content"}` (content is HTML), for a local-corpus search index.
 * With `baseUrl` (a sim server's corpusUrl) each url is the address the server serves the page at, so web_fetch
 * can open what search returns; without it, urls are the pages' canonical http://<host>.example/... addresses.
 */
export async function writeCorpusJsonl(
  file: string,
  documents: readonly CorpusDocument[],
  options: { baseUrl?: string } = {},
): Promise<void> {
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  await writeFile(file, corpusJsonl(documents, options), "utf8");
}

/**
 * The simulated web as a folder: one HTML file per page under `<host>/<path>/index.html`, plus `corpus.jsonl`
 * (url, title, file) so a reader can map files back to their URLs.
 */
export async function writeCorpusFolder(
  directory: string,
  documents: readonly CorpusDocument[],
): Promise<void> {
  const manifest: string[] = [];
  for (const doc of documents) {
    const url = new URL(doc.url);
    const relative = path.join(url.hostname, ...url.pathname.split("/").filter(Boolean), "index.html");
    const file = path.join(directory, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, doc.content, "utf8");
    manifest.push(JSON.stringify({ url: doc.url, title: doc.title, file: relative }));
  }
  await writeFile(path.join(directory, "corpus.jsonl"), `${manifest.join("\n")}\n`, "utf8");
}
