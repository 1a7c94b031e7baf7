import type { ServerResponse } from "node:http";
import { formatSearchResults, searchCorpus } from "../corpus-search.js";
import { SIMULATED_LABEL, simulatedHeader } from "../simulated-label.js";
import { corpusJsonl, servedCorpusUrl } from "../suites/write-suite-jsonl.js";
import { sendJson } from "./send-json.js";
import { sendPage } from "./send-page.js";
import type { SimServerContext } from "./server-context.js";

/** GET /corpus[/...]: the simulated web's index, search, JSONL export and pages (by ?url= or path style). */
export function handleCorpus(context: SimServerContext, url: URL, response: ServerResponse): void {
  const { world } = context;
  context.count("corpus");
  const rest = url.pathname.replace(/^\/corpus\/?/, "");
  if (rest === "" || rest === "index.json") {
    sendJson(response, 200, {
      simulated: true,
      label: SIMULATED_LABEL,
      seed: world.seed,
      documents: world.corpus.documents.length,
    });
    return;
  }
  if (rest === "search") {
    const query = url.searchParams.get("q") ?? url.searchParams.get("query") ?? "";
    const max = Number(url.searchParams.get("max_results") ?? url.searchParams.get("n") ?? 5);
    const found = searchCorpus(
      world.corpus,
      query,
      Number.isFinite(max) ? Math.min(50, Math.max(1, max)) : 5,
    );
    const results =
      url.searchParams.get("urls") === "served"
        ? found.map((result) => ({ ...result, url: servedCorpusUrl(context.corpusUrl(), result.url) }))
        : found;
    if (url.searchParams.get("format") === "text") {
      response.writeHead(200, { "content-type": "text/plain; charset=utf-8", [simulatedHeader]: "1" });
      response.end(formatSearchResults(results));
    } else sendJson(response, 200, { simulated: true, query, results });
    return;
  }
  if (rest === "documents.jsonl") {
    // Served addresses by default (what this server answers at); ?urls=canonical for the pages' own URLs.
    const canonical = url.searchParams.get("urls") === "canonical";
    response.writeHead(200, { "content-type": "application/x-ndjson", [simulatedHeader]: "1" });
    response.end(corpusJsonl(world.corpus.documents, canonical ? {} : { baseUrl: context.corpusUrl() }));
    return;
  }
  if (rest === "page") {
    const target = url.searchParams.get("url") ?? "";
    sendPage(response, world.corpus.byUrl.get(target), target);
    return;
  }
  // Path style: /corpus/<host>/<path> for http://<host>/<path>
  const slash = rest.indexOf("/");
  const host = slash === -1 ? rest : rest.slice(0, slash);
  const path = slash === -1 ? "/" : rest.slice(slash);
  const target = `http://${host}${path}`;
  sendPage(
    response,
    world.corpus.byUrl.get(target) ?? world.corpus.byUrl.get(target.replace(/\/$/, "")),
    target,
  );
}
