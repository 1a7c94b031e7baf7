import { getEventListeners } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { perRequestSignalFetch } from "./per-request-signal-fetch.js";

async function withServer(run: (url: string) => Promise<void>): Promise<void> {
  const server = createServer((request, response) => {
    if (request.url === "/slow") {
      response.writeHead(200, { "content-type": "text/plain" });
      response.write("first ");
      return; // never ends: only an abort stops the read
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

it("many requests on one signal leave no listener on it once their bodies are read", async () => {
  await withServer(async (url) => {
    const session = new AbortController();
    const fetchOne = perRequestSignalFetch();
    for (let index = 0; index < 30; index++) {
      const response = await fetchOne(`${url}/json`, { signal: session.signal });
      expect(await response.json()).toEqual({ ok: true });
    }
    expect(getEventListeners(session.signal, "abort")).toHaveLength(0);
  });
});

it("the caller's abort still stops a body being read", async () => {
  await withServer(async (url) => {
    const session = new AbortController();
    const response = await perRequestSignalFetch()(`${url}/slow`, { signal: session.signal });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("first ");
    expect(getEventListeners(session.signal, "abort")).toHaveLength(1);
    const next = reader.read();
    session.abort(new Error("session closed"));
    await expect(next).rejects.toThrow();
    expect(getEventListeners(session.signal, "abort")).toHaveLength(0);
  });
});
