import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { formatZodIssues, safeParseJson, TfgrpoError } from "@tfgrpo/protocol";
import { Agent, type Dispatcher, request } from "undici";
import { z } from "zod";
import { hostPort, isAllowedHost, isPrivateAddress } from "./address-policy.js";
import { createFetchCache, type FetchCache } from "./fetch-cache.js";
import { findInPage } from "./find-in-page.js";
import { htmlToMarkdown } from "./html-to-markdown.js";
import type { WebFetchResult } from "./web-fetch-result.js";

export type { WebFetchResult } from "./web-fetch-result.js";

export const webFetchOptionsSchema = z.object({
  timeoutMs: z.number().int().positive().default(20_000).describe("Whole fetch, redirects and body included"),
  maxBytes: z
    .number()
    .int()
    .positive()
    .default(2 * 1024 * 1024)
    .describe("Body bytes read (after decompression); the rest is dropped and the result marked truncated"),
  maxRedirects: z.number().int().min(0).default(5),
  allowHosts: z
    .array(z.string().min(1))
    .default([])
    .describe(
      "`host:port` (or `host`) entries allowed even on private or loopback addresses, e.g. the sim corpus",
    ),
  userAgent: z.string().min(1).default("Mozilla/5.0 (compatible; tfgrpo-web-fetch/0.1)"),
});

export type WebFetchOptions = z.input<typeof webFetchOptionsSchema> & {
  /** Shared across toolsets to cache per run; default a fresh cache per createWebFetch. */
  cache?: FetchCache;
  /** DNS resolution, injectable so tests can map names to addresses without a resolver. */
  lookup?: typeof dnsLookup;
};

export interface WebFetch {
  fetch(url: string, options?: { find?: string; signal?: AbortSignal }): Promise<WebFetchResult>;
  close(): Promise<void>;
}

const textTypes = new Set([
  "text/html",
  "application/xhtml+xml",
  "text/plain",
  "text/markdown",
  "text/x-markdown",
  "application/json",
  "text/json",
  "text/csv",
  "text/xml",
  "application/xml",
]);

const refusedCode = "ETFGRPO_PRIVATE_ADDRESS";

function toolError(message: string, details: Record<string, unknown>, cause?: unknown): TfgrpoError {
  return new TfgrpoError("tool_error", `web_fetch: ${message}`, {
    details,
    ...(cause === undefined ? {} : { cause }),
  });
}

/** A page fetcher for a model: safe by default (no private addresses), bounded in time and size, Markdown out. */
export function createWebFetch(options: WebFetchOptions = {}): WebFetch {
  const parsed = webFetchOptionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new TfgrpoError("invalid_config", `web fetch options: ${formatZodIssues(parsed.error.issues)}`);
  }
  const config = parsed.data;
  const cache = options.cache ?? createFetchCache();
  const resolve = options.lookup ?? dnsLookup;

  // Checked at connect time, on the address actually used: no gap between the check and the connection.
  const guardedLookup = ((
    hostname: string,
    lookupOptions: object,
    callback: (...args: unknown[]) => void,
  ) => {
    resolve(hostname, { ...lookupOptions, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error);
      const refused = addresses.find((address) => isPrivateAddress(address.address));
      if (refused) {
        const blocked = Object.assign(
          new Error(`${hostname} resolves to the private address ${refused.address}`),
          {
            code: refusedCode,
          },
        );
        return callback(blocked);
      }
      if ((lookupOptions as { all?: boolean }).all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  }) as unknown as LookupFunction;
  const guardedAgent = new Agent({ connect: { lookup: guardedLookup } });
  const openAgent = new Agent();

  async function fetchPage(url: URL, signal: AbortSignal): Promise<WebFetchResult> {
    let current = url;
    let response: Dispatcher.ResponseData | undefined;
    for (let redirects = 0; ; redirects++) {
      const allowed = isAllowedHost(current, config.allowHosts);
      if (!allowed && isIP(current.hostname.replace(/^\[|\]$/g, "")) && isPrivateAddress(current.hostname)) {
        throw refusedError(current, `${current.hostname} is a private or loopback address`);
      }
      try {
        response = await request(current, {
          method: "GET",
          dispatcher: allowed ? openAgent : guardedAgent,
          headers: {
            "user-agent": config.userAgent,
            accept:
              "text/html,application/xhtml+xml,text/markdown,text/plain;q=0.9,application/json;q=0.8,*/*;q=0.1",
            "accept-encoding": "gzip, deflate, br",
          },
          headersTimeout: config.timeoutMs,
          bodyTimeout: config.timeoutMs,
          signal,
        });
      } catch (error) {
        throw requestError(error, current, signal);
      }
      const location = response.headers.location;
      if (response.statusCode >= 300 && response.statusCode < 400 && location) {
        await response.body.dump().catch(() => undefined);
        if (redirects >= config.maxRedirects) {
          throw toolError(`too many redirects (more than ${config.maxRedirects}) starting at ${url.href}`, {
            url: url.href,
            lastUrl: current.href,
          });
        }
        let next: URL;
        try {
          next = new URL(String(Array.isArray(location) ? location[0] : location), current);
        } catch {
          throw toolError(`${current.href} redirects to an invalid location`, { url: current.href });
        }
        if (next.protocol !== "http:" && next.protocol !== "https:") {
          throw toolError(`${current.href} redirects to ${next.protocol} URL, which is not fetched`, {
            url: current.href,
          });
        }
        current = next;
        continue;
      }
      break;
    }

    const rawType = String(response.headers["content-type"] ?? "");
    const mime = rawType.split(";")[0]!.trim().toLowerCase();
    if (mime && !textTypes.has(mime) && !mime.endsWith("+json") && !mime.endsWith("+xml")) {
      discard(response.body);
      throw toolError(
        `${current.href} is ${mime}, which is binary or unsupported content; only HTML, plain text, Markdown and JSON pages can be read`,
        { url: current.href, contentType: mime },
      );
    }
    const { body, truncated } = await readBody(response, config.maxBytes, current, signal);
    const charset = /charset=["']?([\w-]+)/i.exec(rawType)?.[1] ?? sniffCharset(body);
    if (looksBinary(body)) {
      throw toolError(
        `${current.href} returned binary data (declared ${mime || "no content type"}); it cannot be read as text`,
        {
          url: current.href,
          contentType: mime,
        },
      );
    }
    const text = decode(body, charset);
    const kind = mime || (/^\s*</.test(text) ? "text/html" : "text/plain");
    const page = render(text, kind, current.href);
    return {
      url: url.href,
      finalUrl: current.href,
      status: response.statusCode,
      contentType: kind,
      title: page.title,
      markdown: page.markdown,
      truncated,
    };
  }

  return {
    async fetch(rawUrl, fetchOptions = {}) {
      let url: URL;
      try {
        url = new URL(rawUrl.trim());
      } catch {
        throw new TfgrpoError("invalid_input", `web_fetch: not a valid URL: ${JSON.stringify(rawUrl)}`, {
          details: { field: "url" },
        });
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        throw new TfgrpoError(
          "invalid_input",
          `web_fetch: only http and https URLs can be fetched, not ${url.protocol}`,
          {
            details: { field: "url", url: url.href },
          },
        );
      }
      url.hash = "";
      let pending = cache.get(url.href);
      if (!pending) {
        const signals = [
          AbortSignal.timeout(config.timeoutMs),
          ...(fetchOptions.signal ? [fetchOptions.signal] : []),
        ];
        pending = fetchPage(url, AbortSignal.any(signals));
        cache.set(url.href, pending);
        // Failures are not cached: the next call tries again.
        pending.catch(() => cache.delete(url.href));
      }
      const result = await pending;
      if (fetchOptions.find === undefined) return result;
      return { ...result, matches: findInPage(result.markdown, fetchOptions.find) };
    },
    async close() {
      await Promise.all([guardedAgent.close(), openAgent.close()]);
    },
  };

  function refusedError(url: URL, reason: string): TfgrpoError {
    return toolError(
      `refused ${url.href}: ${reason}. Private, loopback and link-local addresses are not fetched unless "${hostPort(url)}" is in allowHosts`,
      { url: url.href, reason: "private_address" },
    );
  }

  function requestError(error: unknown, url: URL, signal: AbortSignal): TfgrpoError {
    const code = (error as { code?: string }).code;
    if (code === refusedCode) return refusedError(url, (error as Error).message);
    if (signal.aborted || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
      const reason =
        signal.aborted && !(signal.reason instanceof DOMException && signal.reason.name === "TimeoutError")
          ? "was cancelled"
          : `timed out after ${config.timeoutMs} ms`;
      return toolError(`${url.href} ${reason}`, { url: url.href, reason: "timeout" }, error);
    }
    return toolError(
      `could not fetch ${url.href}: ${(error as Error).message}`,
      { url: url.href, code },
      error,
    );
  }

  async function readBody(
    response: Dispatcher.ResponseData,
    maxBytes: number,
    url: URL,
    signal: AbortSignal,
  ): Promise<{ body: Buffer; truncated: boolean }> {
    const encoding = String(response.headers["content-encoding"] ?? "")
      .trim()
      .toLowerCase();
    let stream: Readable = response.body;
    if (encoding === "gzip" || encoding === "x-gzip") stream = response.body.pipe(createGunzip());
    else if (encoding === "deflate") stream = response.body.pipe(createInflate());
    else if (encoding === "br") stream = response.body.pipe(createBrotliDecompress());
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    try {
      for await (const chunk of stream) {
        const buffer = chunk as Buffer;
        if (size + buffer.length > maxBytes) {
          // The cap counts decompressed bytes, so a small compressed bomb stops here too.
          chunks.push(buffer.subarray(0, maxBytes - size));
          size = maxBytes;
          truncated = true;
          break;
        }
        chunks.push(buffer);
        size += buffer.length;
      }
    } catch (error) {
      throw requestError(error, url, signal);
    } finally {
      if (truncated || signal.aborted) {
        discard(response.body);
        if (stream !== response.body) discard(stream);
      }
    }
    return { body: Buffer.concat(chunks), truncated };
  }
}

/** Stops reading a body we do not want; undici reports that as an error event, which is expected here. */
function discard(stream: Readable): void {
  stream.on("error", () => {});
  stream.destroy();
}

function sniffCharset(body: Buffer): string | undefined {
  const head = body.subarray(0, 2048).toString("latin1");
  return /<meta[^>]+charset=["']?([\w-]+)/i.exec(head)?.[1];
}

function decode(body: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

/** NUL bytes do not occur in text in any charset a web page uses (UTF-16 pages aside, which are rare). */
function looksBinary(body: Buffer): boolean {
  const sample = body.subarray(0, 4096);
  if (sample.length === 0) return false;
  let nul = 0;
  for (const byte of sample) if (byte === 0) nul++;
  return nul > 0;
}

function render(text: string, kind: string, url: string): { title: string; markdown: string } {
  if (kind === "text/html" || kind === "application/xhtml+xml") return htmlToMarkdown(text, url);
  if (kind === "application/json" || kind === "text/json" || kind.endsWith("+json")) {
    const parsed = safeParseJson(text);
    const body = parsed.success ? JSON.stringify(parsed.value, null, 2) : text;
    return { title: url, markdown: `\`\`\`json\n${body}\n\`\`\`` };
  }
  const heading = /^#\s+(.+)$/m.exec(text);
  return { title: heading?.[1]?.trim() ?? url, markdown: text.trim() };
}
