import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createStore } from "@tfgrpo/store";
import { postMcpInitialize as initialize } from "@tfgrpo/tools/testing";
import { expect, it } from "vitest";
import { parseClientTokens } from "../service/client-tokens.js";
import { createLibraryService } from "../service/in-process-library-service.js";
import { serveMcpHttp } from "./serve-mcp.js";

it("with a token, the HTTP server answers only requests that carry it", async () => {
  const store = await createStore(":memory:");
  const http = await serveMcpHttp({
    service: createLibraryService({ store }),
    domain: "math",
    port: 0,
    token: "s3cret-token",
  });
  try {
    const anonymous = await fetch(http.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
    });
    expect(anonymous.status).toBe(401);
    const wrong = new Client({ name: "wrong", version: "1" });
    await expect(
      wrong.connect(
        new StreamableHTTPClientTransport(new URL(http.url), {
          requestInit: { headers: { authorization: "Bearer s3cret-tokeN" } },
        }),
      ),
    ).rejects.toThrow();
    const client = new Client({ name: "right", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(http.url), {
        requestInit: { headers: { authorization: "Bearer s3cret-token" } },
      }),
    );
    const reply = await client.callTool({ name: "get_experiences", arguments: { task: "2+2?" } });
    expect(reply.structuredContent).toMatchObject({ domain: "math", version: null, entries: [] });
    expect(http.sessions).toBe(1);
    await client.close();
  } finally {
    await http.close();
    await store.close();
  }
});

const connect = async (url: string, token?: string) => {
  const client = new Client({ name: "test", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(
      new URL(url),
      token === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${token}` } } },
    ),
  );
  return client;
};

it("names the client of each call by its token, stores it, and refuses unknown tokens", async () => {
  const store = await createStore(":memory:");
  const http = await serveMcpHttp({
    service: createLibraryService({ store }),
    domain: "math",
    port: 0,
    clientTokens: parseClientTokens("alice:alice-token-0001\nbob: bob-token-00002\n", "tokens.txt"),
  });
  try {
    const anonymous = await initialize(http.url);
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.message).toMatch(/needs a client token/);
    const unknown = await initialize(http.url, { authorization: "Bearer mallory-token-01" });
    expect(unknown.status).toBe(401);
    expect((await unknown.json()).error.message).toBe(
      "unauthorized: unknown client token (send Authorization: Bearer <token>)",
    );
    const alice = await connect(http.url, "alice-token-0001");
    const got = await alice.callTool({ name: "get_experiences", arguments: { task: "2+2?" } });
    const selectionId = (got.structuredContent as { selectionId: string }).selectionId;
    await alice.callTool({ name: "report_outcome", arguments: { selectionId, success: true } });
    const stored = await store.getSelection(selectionId);
    expect(stored?.selection.client).toBe("alice");
    expect(stored?.outcome?.client).toBe("alice");
    // Another client's token on alice's session is refused: a session belongs to one client.
    const sessionId = (alice.transport as StreamableHTTPClientTransport).sessionId!;
    const borrowed = await fetch(http.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: "Bearer bob-token-00002",
        "mcp-session-id": sessionId,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(borrowed.status).toBe(403);
    expect(await store.listClients("math")).toEqual([
      expect.objectContaining({ client: "alice", selections: 1, outcomes: 1, successRate: 1 }),
    ]);
    await alice.close();
  } finally {
    await http.close();
    await store.close();
  }
});

it("refuses requests past a client's rate limit with a 429 that names the limit and says when to retry", async () => {
  const store = await createStore(":memory:");
  let now = 0;
  const http = await serveMcpHttp({
    service: createLibraryService({ store }),
    domain: "math",
    port: 0,
    clientTokens: parseClientTokens("alice:alice-token-0001,bob:bob-token-00002", "env", { separator: "," }),
    rateLimit: { perSecond: 2, burst: 3 },
    now: () => now,
  });
  try {
    const statuses: number[] = [];
    let refusal: Response | undefined;
    for (let i = 0; i < 5; i++) {
      const response = await initialize(http.url, { authorization: "Bearer alice-token-0001" });
      statuses.push(response.status);
      if (response.status === 429) refusal ??= response;
      else await response.body?.cancel();
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(refusal!.headers.get("retry-after")).toBe("1");
    const body = await refusal!.json();
    expect(body).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
    expect(body.error.message).toBe(
      "rate limit exceeded for client alice: at most 2 requests per second (burst 3); retry after 1 s",
    );
    expect(http.rateLimited).toBe(2);
    // Bob has his own bucket; alice's refills at 2 per second.
    expect((await initialize(http.url, { authorization: "Bearer bob-token-00002" })).status).toBe(200);
    now += 500;
    expect((await initialize(http.url, { authorization: "Bearer alice-token-0001" })).status).toBe(200);
    expect((await initialize(http.url, { authorization: "Bearer alice-token-0001" })).status).toBe(429);
  } finally {
    await http.close();
    await store.close();
  }
});

it("caps open sessions: one more is a 503 naming the cap, until a session closes or an idle one expires", async () => {
  const store = await createStore(":memory:");
  let now = 0;
  const http = await serveMcpHttp({
    service: createLibraryService({ store }),
    domain: "math",
    port: 0,
    maxSessions: 2,
    idleSessionMs: 60_000,
    now: () => now,
  });
  try {
    const first = await connect(http.url);
    const second = await connect(http.url);
    expect(http.sessions).toBe(2);
    const third = await initialize(http.url);
    expect(third.status).toBe(503);
    expect(third.headers.get("retry-after")).toBe("60");
    expect((await third.json()).error.message).toMatch(
      /^too many open MCP sessions \(2, the server's --max-sessions\): close one .*\(after 60 s idle\)$/,
    );
    await (first.transport as StreamableHTTPClientTransport).terminateSession();
    await first.close();
    expect(http.sessions).toBe(1);
    const again = await connect(http.url);
    expect(http.sessions).toBe(2);
    // Idle past the setting: the next initialize finds the idle sessions expired and gets a slot.
    // (after the clients' own follow-up requests, e.g. their event streams, have arrived)
    await new Promise((resolve) => setTimeout(resolve, 200));
    now += 61_000;
    const fresh = await connect(http.url);
    expect(http.sessions).toBe(1);
    await expect(second.callTool({ name: "get_experiences", arguments: { task: "x" } })).rejects.toThrow();
    for (const client of [second, again, fresh]) await client.close();
  } finally {
    await http.close();
    await store.close();
  }
});
