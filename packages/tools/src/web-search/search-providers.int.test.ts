import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { TfgrpoError } from "@tfgrpo/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBraveProvider } from "./brave-provider.js";
import { createSearxngProvider } from "./searxng-provider.js";
import { createTavilyProvider } from "./tavily-provider.js";

// Each provider talks to a real local HTTP server that answers in that API's shape.
describe("search providers against local API servers", () => {
  let server: Server;
  let base: string;
  const seen: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[] = [];
  const key = "tvly-secret-key-123";

  beforeAll(async () => {
    server = createServer(async (request, response) => {
      let body = "";
      for await (const chunk of request) body += chunk;
      seen.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      const json = (status: number, value: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(value));
      };
      const url = new URL(request.url!, "http://x");
      if (url.pathname === "/searx/search") {
        return json(200, {
          results: [
            { url: "https://a.example/1", title: "First", content: "first snippet", score: 2.5 },
            { url: "https://a.example/2", title: "Second", content: null },
          ],
        });
      }
      if (url.pathname === "/tavily/search") {
        if (request.headers.authorization !== `Bearer ${key}`)
          return json(401, { detail: `invalid key ${key.slice(0, 4)}` });
        return json(200, {
          results: [{ title: "T", url: "https://t.example", content: "tavily snippet", score: 0.9 }],
        });
      }
      if (url.pathname === "/tavily-echo/search")
        return json(401, { detail: `bad key: ${request.headers.authorization}` });
      if (url.pathname === "/brave/res/v1/web/search") {
        return json(200, {
          web: {
            results: [
              {
                title: "<strong>Brave</strong> result",
                url: "https://b.example",
                description: "a &amp; <strong>b</strong>",
              },
            ],
          },
        });
      }
      if (url.pathname === "/broken/search") {
        response.writeHead(200, { "content-type": "application/json" });
        return response.end("{not json");
      }
      return json(404, { error: "not found" });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("SearXNG: asks the JSON API and maps its results", async () => {
    const results = await createSearxngProvider({ baseUrl: `${base}/searx` }).search("tides moon", {
      maxResults: 5,
    });
    expect(results).toEqual([
      { title: "First", url: "https://a.example/1", snippet: "first snippet", score: 2.5 },
      { title: "Second", url: "https://a.example/2", snippet: "" },
    ]);
    const request = seen.at(-1)!;
    expect(request.url).toBe("/searx/search?q=tides+moon&format=json");
  });

  it("Tavily: sends the key from the named variable as a bearer token and the query as JSON", async () => {
    const provider = createTavilyProvider({
      apiKeyEnv: "TEST_TAVILY_KEY",
      baseUrl: `${base}/tavily`,
      env: { TEST_TAVILY_KEY: key },
    });
    const results = await provider.search("eiffel", { maxResults: 3 });
    expect(results).toEqual([
      { title: "T", url: "https://t.example", snippet: "tavily snippet", score: 0.9 },
    ]);
    const request = seen.at(-1)!;
    expect(request.method).toBe("POST");
    expect(JSON.parse(request.body)).toEqual({ query: "eiffel", max_results: 3, search_depth: "basic" });
  });

  it("Tavily: a missing key names the variable; a server echoing the key never puts it in the error", async () => {
    const missing = createTavilyProvider({
      apiKeyEnv: "TEST_TAVILY_KEY",
      baseUrl: `${base}/tavily`,
      env: {},
    });
    const error = await missing.search("x", { maxResults: 1 }).catch((caught: unknown) => caught);
    expect(TfgrpoError.hasCode(error, "invalid_config")).toBe(true);
    expect((error as Error).message).toContain("TEST_TAVILY_KEY");
    const echo = createTavilyProvider({ apiKeyEnv: "K", baseUrl: `${base}/tavily-echo`, env: { K: key } });
    const echoed = await echo.search("x", { maxResults: 1 }).catch((caught: unknown) => caught);
    expect((echoed as Error).message).toContain("HTTP 401");
    expect((echoed as Error).message).not.toContain(key);
    expect(JSON.stringify(echoed)).not.toContain(key);
  });

  it("Brave: sends the subscription token and strips highlight markup", async () => {
    const provider = createBraveProvider({
      apiKeyEnv: "B",
      baseUrl: `${base}/brave`,
      env: { B: "brave-key" },
    });
    const results = await provider.search("brave", { maxResults: 2 });
    expect(results).toEqual([{ title: "Brave result", url: "https://b.example", snippet: "a & b" }]);
    expect(seen.at(-1)!.headers["x-subscription-token"]).toBe("brave-key");
    expect(seen.at(-1)!.url).toBe("/brave/res/v1/web/search?q=brave&count=2");
  });

  it("reports malformed answers with the service and endpoint named", async () => {
    const error = await createSearxngProvider({ baseUrl: `${base}/broken` })
      .search("x", { maxResults: 1 })
      .catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(
      /^SearXNG search failed \(http:\/\/127\.0\.0\.1:\d+\/broken\/search\): unexpected answer: invalid JSON/,
    );
  });
});
