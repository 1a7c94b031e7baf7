import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { CorpusDocument } from "../web-search/local-corpus-provider.js";
import { fixtureCorpusDocuments } from "./fixture-corpus.js";

export interface CorpusServer {
  /** e.g. http://127.0.0.1:41234/ */
  readonly baseUrl: string;
  /** `127.0.0.1:<port>`, for web_fetch's allowHosts. */
  readonly hostPort: string;
  /** The documents with their URLs on this server. */
  readonly documents: CorpusDocument[];
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Serves corpus documents over real HTTP on 127.0.0.1 (port 0), each at its URL's path: what web_fetch reads in
 * tests. Use as `await using server = await startCorpusServer()`. Default: the fixture corpus.
 */
export async function startCorpusServer(
  build: (baseUrl: string) => CorpusDocument[] = fixtureCorpusDocuments,
): Promise<CorpusServer> {
  let pages = new Map<string, CorpusDocument>();
  const server = createServer((request, response) => {
    const page = pages.get(new URL(request.url ?? "/", "http://x").pathname);
    if (!page) {
      response.writeHead(404, { "content-type": "text/html" });
      response.end("<html><head><title>Not found</title></head><body><p>No such page.</p></body></html>");
      return;
    }
    const isMarkdown = !/<html|<body|<p\b/i.test(page.content);
    response.writeHead(200, {
      "content-type": isMarkdown ? "text/markdown; charset=utf-8" : "text/html; charset=utf-8",
    });
    response.end(page.content);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}/`;
  const documents = build(baseUrl);
  pages = new Map(documents.map((document) => [new URL(document.url).pathname, document]));
  const close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { baseUrl, hostPort: `127.0.0.1:${port}`, documents, close, [Symbol.asyncDispose]: close };
}
