import type { LookupAddress } from "node:dns";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { TfgrpoError } from "@tfgrpo/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFetchCache } from "./fetch-cache.js";
import { createWebFetch, type WebFetch } from "./web-fetch.js";

// A real HTTP server on 127.0.0.1 serving every case web_fetch must handle.
const article = `<!doctype html><html><head><title>Prime numbers - Local Wiki</title></head><body>
<nav><a href="/">Home</a> | <a href="/wiki/composite.html">Composite numbers</a></nav>
<main><h1>Prime numbers</h1>
<p>A prime number is a natural number greater than 1 that is not a product of two smaller natural numbers.</p>
<p>The first primes are 2, 3, 5, 7 and 11. There are infinitely many primes, as Euclid proved around 300 BC.</p>
<p>The number 2 is the only even prime. Every other even number is divisible by 2.</p>
<h2>Counting primes</h2>
<table><tr><th>n</th><th>primes below n</th></tr><tr><td>10</td><td>4</td></tr><tr><td>100</td><td>25</td></tr></table>
<p>See also <a href="twin.html">twin primes</a>.</p></main></body></html>`;

describe("web_fetch against a real local HTTP server", () => {
  let server: Server;
  let base: string;
  let hostAndPort: string;
  const hits = new Map<string, number>();
  const fetchers: WebFetch[] = [];
  const make = (options: Parameters<typeof createWebFetch>[0] = {}) => {
    const fetcher = createWebFetch({ allowHosts: [hostAndPort], timeoutMs: 30_000, ...options });
    fetchers.push(fetcher);
    return fetcher;
  };

  beforeAll(async () => {
    server = createServer((request, response: ServerResponse) => {
      const path = request.url ?? "/";
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const send = (
        status: number,
        type: string,
        body: string | Buffer,
        headers: Record<string, string> = {},
      ) => {
        response.writeHead(status, { "content-type": type, ...headers });
        response.end(body);
      };
      if (path === "/wiki/primes.html") return send(200, "text/html; charset=utf-8", article);
      if (path.startsWith("/redirect/")) {
        const left = Number(path.split("/")[2]);
        const location = left > 0 ? `/redirect/${left - 1}` : "/wiki/primes.html";
        return send(302, "text/plain", "moved", { location });
      }
      if (path === "/redirect-to-localhost") {
        return send(301, "text/plain", "moved", {
          location: `http://localhost:${new URL(base).port}/wiki/primes.html`,
        });
      }
      if (path === "/redirect-to-file")
        return send(302, "text/plain", "", { location: "file:///etc/passwd" });
      if (path === "/big.html") {
        return send(
          200,
          "text/html",
          `<html><body>${"<p>filler paragraph of text</p>".repeat(100_000)}</body></html>`,
        );
      }
      if (path === "/bomb.html") {
        return send(200, "text/html", gzipSync(Buffer.alloc(50 * 1024 * 1024, "a")), {
          "content-encoding": "gzip",
        });
      }
      if (path === "/gzip.html") {
        return send(200, "text/html", gzipSync(Buffer.from(article)), { "content-encoding": "gzip" });
      }
      if (path === "/image.png")
        return send(200, "image/png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]));
      if (path === "/file.bin") return send(200, "application/octet-stream", Buffer.alloc(64));
      if (path === "/disguised.html")
        return send(200, "text/html", Buffer.from([60, 104, 0, 1, 2, 0, 0, 255]));
      if (path === "/slow-headers") return; // never answers
      if (path === "/slow-body") {
        response.writeHead(200, { "content-type": "text/html" });
        const timer = setInterval(() => response.write("<p>x</p>"), 100);
        response.on("close", () => clearInterval(timer));
        return;
      }
      if (path === "/broken.html") {
        return send(
          200,
          "text/html",
          "<html><head><title>Broken</title><body><p>Unclosed <b>bold <div>text &amp; more<p>second</span></td>",
        );
      }
      if (path === "/notes.md")
        return send(200, "text/markdown", "# Notes\n\nPlain *markdown* stays as it is.");
      if (path === "/data.json") return send(200, "application/json", '{"answer":42,"list":[1,2]}');
      if (path === "/latin1.html") {
        return send(
          200,
          "text/html; charset=iso-8859-1",
          Buffer.from("<p>Café au lait, naïve façade.</p>", "latin1"),
        );
      }
      if (path === "/no-type") {
        response.writeHead(200);
        return response.end("<p>no content type given</p>");
      }
      return send(
        404,
        "text/html",
        "<html><head><title>Not found</title></head><body><p>No such page.</p></body></html>",
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
    hostAndPort = `127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await Promise.all(fetchers.map((fetcher) => fetcher.close()));
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("turns an HTML page into clean Markdown with a title, absolute links and a table", async () => {
    const page = await make().fetch(`${base}/wiki/primes.html#section`);
    expect(page).toMatchObject({ status: 200, title: "Prime numbers - Local Wiki", truncated: false });
    expect(page.finalUrl).toBe(`${base}/wiki/primes.html`);
    expect(page.markdown).toContain("A prime number is a natural number greater than 1");
    expect(page.markdown).toMatch(/\| 100 +\| 25 +\|/);
    expect(page.markdown).toContain(`[twin primes](${base}/wiki/twin.html)`);
    // Navigation links are kept, listed after the content.
    expect(page.markdown).toContain(`[Composite numbers](${base}/wiki/composite.html)`);
    expect(page.markdown).not.toContain("<p>");
  });

  it("follows redirects up to the limit and names the start when there are too many", async () => {
    const fetcher = make({ maxRedirects: 3 });
    const page = await fetcher.fetch(`${base}/redirect/2`);
    expect(page.finalUrl).toBe(`${base}/wiki/primes.html`);
    expect(page.url).toBe(`${base}/redirect/2`);
    const error = await fetcher.fetch(`${base}/redirect/5`).catch((caught: unknown) => caught);
    expect(TfgrpoError.hasCode(error, "tool_error")).toBe(true);
    expect((error as Error).message).toContain("too many redirects (more than 3)");
  });

  it("checks the address again after a redirect", async () => {
    const error = await make()
      .fetch(`${base}/redirect-to-localhost`)
      .catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/refused http:\/\/localhost:\d+\/wiki\/primes\.html/);
    const file = await make()
      .fetch(`${base}/redirect-to-file`)
      .catch((caught: unknown) => caught);
    expect((file as Error).message).toContain("file: URL, which is not fetched");
  });

  it("caps oversized pages while streaming and marks them truncated", async () => {
    const page = await make({ maxBytes: 64 * 1024 }).fetch(`${base}/big.html`);
    expect(page.truncated).toBe(true);
    expect(page.markdown).toContain("filler paragraph of text");
    expect(page.markdown.length).toBeLessThan(64 * 1024);
  });

  it("caps decompressed bytes, so a gzip bomb stops at the limit", async () => {
    const page = await make({ maxBytes: 256 * 1024 }).fetch(`${base}/bomb.html`);
    expect(page.truncated).toBe(true);
    expect(page.markdown.length).toBeLessThanOrEqual(256 * 1024);
    const gzip = await make().fetch(`${base}/gzip.html`);
    expect(gzip.title).toBe("Prime numbers - Local Wiki");
  });

  it("refuses binary content with a clear message", async () => {
    const fetcher = make();
    for (const [path, type] of [
      ["/image.png", "image/png"],
      ["/file.bin", "application/octet-stream"],
    ]) {
      const error = await fetcher.fetch(`${base}${path}`).catch((caught: unknown) => caught);
      expect((error as Error).message).toContain(`is ${type}, which is binary or unsupported content`);
    }
    const disguised = await fetcher.fetch(`${base}/disguised.html`).catch((caught: unknown) => caught);
    expect((disguised as Error).message).toContain("returned binary data (declared text/html)");
  });

  it("times out slow responses, headers or body", async () => {
    const fetcher = make({ timeoutMs: 500 });
    for (const path of ["/slow-headers", "/slow-body"]) {
      const error = await fetcher.fetch(`${base}${path}`).catch((caught: unknown) => caught);
      expect(TfgrpoError.hasCode(error, "tool_error")).toBe(true);
      expect((error as Error).message).toContain("timed out after 500 ms");
    }
  });

  it("reads broken HTML, plain Markdown, JSON, other charsets and untyped text", async () => {
    const fetcher = make();
    const broken = await fetcher.fetch(`${base}/broken.html`);
    expect(broken.title).toBe("Broken");
    expect(broken.markdown).toContain("Unclosed **bold");
    expect(broken.markdown).toContain("text & more");
    expect(broken.markdown).toContain("second");
    const notes = await fetcher.fetch(`${base}/notes.md`);
    expect(notes).toMatchObject({ title: "Notes", markdown: "# Notes\n\nPlain *markdown* stays as it is." });
    const data = await fetcher.fetch(`${base}/data.json`);
    expect(data.markdown).toBe('```json\n{\n  "answer": 42,\n  "list": [\n    1,\n    2\n  ]\n}\n```');
    expect((await fetcher.fetch(`${base}/latin1.html`)).markdown).toBe("Café au lait, naïve façade.");
    expect((await fetcher.fetch(`${base}/no-type`)).markdown).toBe("no content type given");
  });

  it("returns error pages with their status", async () => {
    const page = await make().fetch(`${base}/missing`);
    expect(page).toMatchObject({ status: 404, title: "Not found" });
    expect(page.markdown).toContain("No such page.");
  });

  it("finds a phrase and returns the paragraphs around it", async () => {
    const page = await make().fetch(`${base}/wiki/primes.html`, { find: "only even prime" });
    expect(page.matches).toHaveLength(1);
    expect(page.matches![0]!.kind).toBe("exact");
    expect(page.matches![0]!.text).toContain("The number 2 is the only even prime.");
    expect(page.matches![0]!.text).toContain("Euclid proved");
    const loose = await make().fetch(`${base}/wiki/primes.html`, { find: "Euclid primes infinitely" });
    expect(loose.matches?.[0]).toMatchObject({ kind: "words" });
    const none = await make().fetch(`${base}/wiki/primes.html`, { find: "zebra" });
    expect(none.matches).toEqual([]);
  });

  it("caches pages per fetcher, and shares a cache when one is passed", async () => {
    const before = hits.get("/wiki/primes.html?cache") ?? 0;
    const cache = createFetchCache();
    const first = make({ cache });
    await Promise.all([
      first.fetch(`${base}/wiki/primes.html?cache`),
      first.fetch(`${base}/wiki/primes.html?cache`),
    ]);
    await make({ cache }).fetch(`${base}/wiki/primes.html?cache`, { find: "prime" });
    expect(hits.get("/wiki/primes.html?cache")! - before).toBe(1);
    await make().fetch(`${base}/wiki/primes.html?cache`);
    expect(hits.get("/wiki/primes.html?cache")! - before).toBe(2);
  });

  it("refuses loopback and private addresses unless allowed, before connecting", async () => {
    const before = hits.get("/wiki/primes.html") ?? 0;
    const port = new URL(base).port;
    // Names resolve through an injected lookup, so no real resolver or outside address is involved.
    const fakeDns: Record<string, LookupAddress[]> = {
      "intranet.example": [{ address: "10.0.0.7", family: 4 }],
      "metadata.google.internal": [{ address: "169.254.169.254", family: 4 }],
      "mixed.example": [
        { address: "93.184.216.34", family: 4 },
        { address: "192.168.1.20", family: 4 },
      ],
      localhost: [{ address: "127.0.0.1", family: 4 }],
    };
    const lookup = ((hostname: string, _options: unknown, callback: (...args: unknown[]) => void) => {
      const addresses = fakeDns[hostname];
      if (!addresses)
        return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }));
      return callback(null, addresses);
    }) as never;
    const strict = createWebFetch({ timeoutMs: 30_000, lookup });
    fetchers.push(strict);
    for (const url of [
      `${base}/wiki/primes.html`,
      `http://localhost:${port}/wiki/primes.html`,
      `http://[::1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      "http://intranet.example/",
      "http://metadata.google.internal/computeMetadata/v1/",
      "http://mixed.example/",
      "http://169.254.169.254/latest/meta-data/",
    ]) {
      const error = await strict.fetch(url).catch((caught: unknown) => caught);
      expect(TfgrpoError.isInstance(error), url).toBe(true);
      expect((error as Error).message, url).toContain("refused");
      expect((error as Error).message, url).toContain("allowHosts");
    }
    expect(hits.get("/wiki/primes.html") ?? 0).toBe(before);
    const file = await strict.fetch("file:///etc/passwd").catch((caught: unknown) => caught);
    expect(TfgrpoError.hasCode(file, "invalid_input")).toBe(true);
  });
});
