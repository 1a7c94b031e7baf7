import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { TfgrpoError } from "@tfgrpo/protocol";
import type { PolicyBehaviour, SimNoiseOptions } from "./behaviour.js";
import { createFaultPlan, type FaultConfig, type LatencyDistribution, parseFaultSpec } from "./faults.js";
import { hashString } from "./hash.js";
import { createPromptCache } from "./prompt-cache.js";
import { createFaultInjector } from "./server/fault-injector.js";
import { handleChatCompletions } from "./server/handle-chat-completions.js";
import { handleCorpus } from "./server/handle-corpus.js";
import { handleEmbeddings } from "./server/handle-embeddings.js";
import { HttpError } from "./server/http-error.js";
import { modelObject } from "./server/model-object.js";
import { sendError, sendJson } from "./server/send-json.js";
import { sendPage } from "./server/send-page.js";
import type { SimServerContext } from "./server/server-context.js";
import { createServerStats, type SimServerStats } from "./server/server-stats.js";
import { createSimModel } from "./sim-model.js";
import { SIMULATED_LABEL, simModelNames } from "./simulated-label.js";
import { servedCorpusUrl } from "./suites/write-suite-jsonl.js";
import type { SimWorld } from "./world.js";

export type { SimServerStats } from "./server/server-stats.js";

export interface SimServerOptions {
  /** Seed of every decision of the simulated model (and of the world, unless `world` is given). */
  seed: number;
  /** World (or world seed) whose tasks and web pages the server knows. Defaults to `seed`. */
  world?: SimWorld | number;
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Injected faults, as an object or the CLI string form (see parseFaultSpec). */
  faults?: FaultConfig | string;
  /** Latency added to every model call. */
  latency?: LatencyDistribution;
  noise?: SimNoiseOptions;
  behaviour?: Partial<PolicyBehaviour>;
  /** Clock for the `created` field (the only time-dependent output). */
  now?: () => number;
}

export interface SimServer extends AsyncDisposable {
  /** Base URL for OpenAI clients, e.g. http://127.0.0.1:41234/v1 */
  url: string;
  port: number;
  /** Base URL of the simulated web (search, pages, JSONL export). */
  corpusUrl: string;
  seed: number;
  world: SimWorld;
  simulated: true;
  label: string;
  stats(): SimServerStats;
  close(): Promise<void>;
}

/**
 * The OpenAI-compatible simulated model server and the simulated web, on one loopback port.
 * Routes: POST /v1/chat/completions, POST /v1/embeddings, GET /v1/models[/id]; GET /corpus/search?q=,
 * /corpus/documents.jsonl, /corpus/page?url=, /corpus/<host>/<path>. Every answer is labelled simulated.
 */
export async function createSimServer(options: SimServerOptions): Promise<SimServer> {
  const { seed } = options;
  const model = createSimModel({
    seed,
    ...(options.world === undefined ? {} : { world: options.world }),
    ...(options.noise ? { noise: options.noise } : {}),
    ...(options.behaviour ? { behaviour: options.behaviour } : {}),
  });
  const world = model.world;
  const stats = createServerStats();
  const faults = createFaultInjector({
    plan: createFaultPlan(
      typeof options.faults === "string" ? parseFaultSpec(options.faults) : options.faults,
      seed,
    ),
    seed,
    latency: options.latency,
    stats,
  });
  const hosts = new Set(world.corpus.documents.map((doc) => new URL(doc.url).host));
  let closing = false;
  let origin = "";
  let corpusUrl = "";
  const completionCounts = new Map<string, number>();
  const context: SimServerContext = {
    seed,
    model,
    world,
    faults,
    cache: createPromptCache(),
    now: options.now ?? Date.now,
    stats,
    count: (key) => {
      stats.byKind[key] = (stats.byKind[key] ?? 0) + 1;
    },
    // Fault draws and ids key on the request body without this server's own address, so a run is the same whatever
    // port the server got (web tasks put served corpus URLs into prompts).
    requestKey: (raw) => String(hashString(origin ? raw.replaceAll(origin, "") : raw)),
    // Completion ids come from the request body and how often it was seen, never from arrival order.
    completionKey: (key) => {
      const n = completionCounts.get(key) ?? 0;
      completionCounts.set(key, n + 1);
      if (completionCounts.size > 200_000) completionCounts.clear();
      return `${key}:${n}`;
    },
    corpusUrl: () => corpusUrl,
  };

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const arrivedMs = performance.now();
    stats.requests++;
    const hostHeader = (request.headers.host ?? "").toLowerCase();
    const url = new URL(request.url ?? "/", "http://sim.local");
    // Proxy-style or Host-routed requests for a page of the simulated web.
    if (hosts.has(hostHeader) || (/^https?:\/\//.test(request.url ?? "") && hosts.has(url.host))) {
      const host = hosts.has(hostHeader) ? hostHeader : url.host;
      sendPage(
        response,
        world.corpus.byUrl.get(`http://${host}${url.pathname}`),
        `http://${host}${url.pathname}`,
      );
      return;
    }
    const path = url.pathname.replace(/\/+$/, "") || "/";
    if (request.method === "POST" && path === "/v1/chat/completions")
      return handleChatCompletions(context, request, response, arrivedMs);
    if (request.method === "POST" && path === "/v1/embeddings")
      return handleEmbeddings(context, request, response);
    if (request.method === "GET" && path === "/v1/models") {
      context.count("models");
      sendJson(response, 200, { object: "list", data: simModelNames.map(modelObject) });
      return;
    }
    if (request.method === "GET" && path.startsWith("/v1/models/")) {
      context.count("models");
      sendJson(response, 200, modelObject(decodeURIComponent(path.slice("/v1/models/".length))));
      return;
    }
    if (request.method === "GET" && (path === "/corpus" || path.startsWith("/corpus/"))) {
      handleCorpus(context, url, response);
      return;
    }
    throw new HttpError(
      404,
      `no route ${request.method} ${url.pathname} on the sim server`,
      "not_found_error",
    );
  }

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      if (response.headersSent || response.destroyed) return;
      if (error instanceof HttpError) sendError(response, error.status, error.message, error.type);
      else sendError(response, 500, `sim server bug: ${(error as Error).message}`, "server_error");
    });
  });
  // Idle keep-alive sockets stay open well past clients' own idle timeouts (undici: 4 s): a server that closes an
  // idle socket first races the client's next request on it, which then fails with ECONNRESET.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 125_000;

  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) =>
      reject(
        new TfgrpoError(
          "invalid_config",
          `sim server: cannot listen on ${host}:${options.port ?? 0}: ${error.message}`,
          {
            cause: error,
            details: { host, port: options.port ?? 0 },
          },
        ),
      ),
    );
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  corpusUrl = `${origin}/corpus`;

  async function close(): Promise<void> {
    if (closing) return;
    closing = true;
    faults.clearTimers();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Hanging requests and keep-alive sockets would hold close() forever.
      server.closeAllConnections();
    });
  }

  return {
    url: `${origin}/v1`,
    port,
    corpusUrl,
    seed,
    world,
    simulated: true,
    label: SIMULATED_LABEL,
    stats: () => structuredClone(stats),
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** URL on the sim server that serves a page of the simulated web (path style); served URLs pass unchanged. */
export function corpusPageUrl(corpusUrl: string, documentUrl: string): string {
  return documentUrl.startsWith(corpusUrl) ? documentUrl : servedCorpusUrl(corpusUrl, documentUrl);
}
