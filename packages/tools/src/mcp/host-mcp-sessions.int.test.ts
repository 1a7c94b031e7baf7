import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { expect, it } from "vitest";
import { z } from "zod";
import { postMcpInitialize as initialize } from "../testing/post-mcp-initialize.js";
import { hostMcpSessions } from "./host-mcp-sessions.js";

/** A server whose one tool says which client its session was made for. */
function whoAmIServer(client: string | undefined): McpServer {
  const server = new McpServer({ name: "who-am-i", version: "1.0.0" });
  server.registerTool("who_am_i", { inputSchema: { note: z.string().optional() } }, async () => ({
    content: [{ type: "text", text: client ?? "anonymous" }],
  }));
  return server;
}

const connect = async (url: string, headers: Record<string, string> = {}) => {
  const client = new Client({ name: "test", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  await client.connect(transport);
  return { client, transport };
};

it("gives each client a session with its own server, answers only /mcp, caps sessions and expires idle ones", async () => {
  let now = 0;
  const host = await hostMcpSessions({
    port: 0,
    maxSessions: 2,
    idleSessionMs: 60_000,
    createServer: whoAmIServer,
    admit: (request) => {
      const name = request.headers["x-client"];
      if (name === "mallory") return { status: 401, message: "not you", headers: { "x-why": "listed" } };
      return { client: typeof name === "string" ? name : undefined };
    },
    now: () => now,
  });
  try {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/mcp`);
    const refused = await initialize(host.url, { "x-client": "mallory" });
    expect([refused.status, refused.headers.get("x-why")]).toEqual([401, "listed"]);
    expect((await refused.json()).error).toEqual({ code: -32000, message: "not you" });
    const elsewhere = await fetch(new URL("/other", host.url), { method: "POST" });
    expect([elsewhere.status, (await elsewhere.json()).error.message]).toEqual([
      404,
      "not found: /other (the MCP endpoint is /mcp)",
    ]);
    expect((await fetch(host.url)).status).toBe(400);

    const alice = await connect(host.url, { "x-client": "alice" });
    const anonymous = await connect(host.url);
    expect(host.sessions).toBe(2);
    const said = await alice.client.callTool({ name: "who_am_i", arguments: {} });
    expect(said.content).toEqual([{ type: "text", text: "alice" }]);
    expect((await anonymous.client.callTool({ name: "who_am_i", arguments: {} })).content).toEqual([
      { type: "text", text: "anonymous" },
    ]);
    // Alice's session answers alice only.
    const borrowed = await fetch(host.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": alice.transport.sessionId!,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(borrowed.status).toBe(403);

    const third = await initialize(host.url, { "x-client": "carol" });
    expect([third.status, (await third.json()).error.message]).toEqual([
      503,
      "too many open sessions (2): end one with DELETE /mcp",
    ]);
    // Both sessions idle past the limit: the next initialize expires them and gets a slot.
    now += 60_001;
    const carol = await connect(host.url, { "x-client": "carol" });
    expect(host.sessions).toBe(1);
    await expect(alice.client.callTool({ name: "who_am_i", arguments: {} })).rejects.toThrow();
    await carol.client.close();
  } finally {
    await host.close();
  }
});

it("refuses a taken port with one conflict error naming host and port, and a session cap below 1", async () => {
  const first = await hostMcpSessions({
    port: 0,
    maxSessions: 1,
    idleSessionMs: 1000,
    createServer: whoAmIServer,
  });
  try {
    await expect(
      hostMcpSessions({ port: first.port, maxSessions: 1, idleSessionMs: 1000, createServer: whoAmIServer }),
    ).rejects.toMatchObject({
      code: "conflict",
      message: `cannot listen on 127.0.0.1:${first.port}: the port is in use`,
    });
  } finally {
    await first.close();
  }
  await expect(
    hostMcpSessions({ port: 0, maxSessions: 0, idleSessionMs: 1000, createServer: whoAmIServer }),
  ).rejects.toMatchObject({
    code: "invalid_config",
    message: "max sessions must be a whole number >= 1, got 0",
  });
});
