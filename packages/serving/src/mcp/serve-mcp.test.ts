import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createStore } from "@tfgrpo/store";
import { expect, it } from "vitest";
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
