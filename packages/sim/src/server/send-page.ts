import type { ServerResponse } from "node:http";
import type { CorpusDocument } from "../corpus.js";
import { SIMULATED_LABEL, simulatedHeader } from "../simulated-label.js";

/** A page of the simulated web as HTML, or a labelled 404 naming `what` was asked for. */
export function sendPage(response: ServerResponse, doc: CorpusDocument | undefined, what: string): void {
  if (!doc) {
    const html = `<!doctype html><html><head><title>404 Not Found</title></head><body><main><h1>Not Found</h1><p>No simulated page at ${what.replace(/[<>&"]/g, "")}.</p></main><footer>${SIMULATED_LABEL}</footer></body></html>`;
    response.writeHead(404, { "content-type": "text/html; charset=utf-8", [simulatedHeader]: "1" });
    response.end(html);
    return;
  }
  response.writeHead(200, {
    "content-type": "text/html; charset=utf-8",
    [simulatedHeader]: "1",
    ...(doc.published ? { "last-modified": new Date(`${doc.published}T00:00:00Z`).toUTCString() } : {}),
  });
  response.end(doc.content);
}
