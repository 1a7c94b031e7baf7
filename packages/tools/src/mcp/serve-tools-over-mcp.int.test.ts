// A fixed list of tools served over Streamable HTTP: a real MCP client lists and calls them; a refusal and a throw
// come back as error results; closing ends the endpoint.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { EnvironmentTool } from "@tfgrpo/protocol";
import { expect, it } from "vitest";
import { serveToolsOverMcp } from "./serve-tools-over-mcp.js";

const tools: EnvironmentTool[] = [
  {
    name: "double",
    description: "Doubles a number.",
    inputSchema: { type: "object", properties: { x: { type: "number" } }, required: ["x"] },
    call: async (input) => String(2 * Number(input.x)),
  },
  {
    name: "refuse",
    description: "Always refuses.",
    inputSchema: { type: "object", properties: {} },
    call: async () => "Error: not allowed",
  },
  {
    name: "explode",
    description: "Always throws.",
    inputSchema: { type: "object", properties: {} },
    call: async () => {
      throw new Error("boom");
    },
  },
];

async function connect(url: string) {
  const client = new Client({ name: "test", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

it("serves the tools it was given, each call to their own function, and stops when closed", async () => {
  const served = await serveToolsOverMcp(tools, { name: "tickets" });
  const client = await connect(served.url);
  try {
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => [tool.name, tool.description, tool.inputSchema])).toEqual(
      tools.map((tool) => [tool.name, tool.description, tool.inputSchema]),
    );
    expect(await client.callTool({ name: "double", arguments: { x: 21 } })).toEqual({
      content: [{ type: "text", text: "42" }],
    });
    expect(await client.callTool({ name: "refuse", arguments: {} })).toMatchObject({
      content: [{ type: "text", text: "Error: not allowed" }],
      isError: true,
    });
    expect(await client.callTool({ name: "explode", arguments: {} })).toMatchObject({
      content: [{ type: "text", text: "Error: boom" }],
      isError: true,
    });
    expect(await client.callTool({ name: "absent", arguments: {} })).toMatchObject({ isError: true });
    expect(served.sessions).toBe(1);
  } finally {
    await client.close();
    await served.close();
  }
  await expect(connect(served.url)).rejects.toThrow();
});
