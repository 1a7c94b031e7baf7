// The `environment_changes` control (docs/tools.md): a stateful server that reports its own changes since the reset
// is never asked for its whole state; the attempt's changes are the server's, and a malformed answer is the
// environment's failure, naming the server.
import type { EnvironmentTool } from "@tfgrpo/protocol";
import { TfgrpoError } from "@tfgrpo/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { type ServedTools, serveToolsOverMcp } from "../mcp/serve-tools-over-mcp.js";
import { openToolset } from "./open-toolset.js";
import { createToolResources } from "./tool-resources.js";

const task = { id: "t1", domain: "counter", question: "Count to two." };
const calls: string[] = [];
let count = 0;
let changesAnswer: () => string = () =>
  JSON.stringify(count === 0 ? [] : [{ path: "/count", op: "replace", before: 0, after: count }]);

const tool = (name: string, call: () => string): EnvironmentTool => ({
  name,
  description: `${name} of the counter`,
  inputSchema: { type: "object", properties: {} },
  async call() {
    calls.push(name);
    return call();
  },
});

let served: ServedTools | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
  calls.length = 0;
  count = 0;
});

async function counterServer(withChanges: boolean) {
  served = await serveToolsOverMcp(
    [
      tool("increment", () => String(++count)),
      tool("environment_reset", () => {
        count = 0;
        return "reset";
      }),
      tool("environment_state", () => JSON.stringify({ count })),
      ...(withChanges ? [tool("environment_changes", () => changesAnswer())] : []),
    ],
    { name: "counter" },
  );
  return createToolResources({
    domains: { counter: ["mcp:counter"] },
    servers: { counter: { url: served.url, environment: "session" } },
  });
}

describe("environment_changes", () => {
  it("reports the server's changes, and never reads the whole state", async () => {
    const resources = await counterServer(true);
    try {
      const toolset = await openToolset({ domain: "counter", resources, task });
      expect(toolset.tools.map((t) => t.name)).toEqual(["increment"]);
      expect(toolset.environment?.initialState).toBeUndefined();
      await (toolset.tools[0] as unknown as { invoke(input: unknown): Promise<string> }).invoke({});
      await (toolset.tools[0] as unknown as { invoke(input: unknown): Promise<string> }).invoke({});
      expect(await toolset.environment!.changes!()).toEqual([
        { path: "/count", op: "replace", before: 0, after: 2 },
      ]);
      await toolset.close();
      expect(calls).toEqual(["environment_reset", "increment", "increment", "environment_changes"]);
    } finally {
      await resources.close();
    }
  });

  it("without it, reads the state after the reset and at the end, as before", async () => {
    const resources = await counterServer(false);
    try {
      const toolset = await openToolset({ domain: "counter", resources, task });
      expect(toolset.environment?.initialState).toEqual({ count: 0 });
      expect(toolset.environment?.changes).toBeUndefined();
      await toolset.close();
      expect(calls).toEqual(["environment_reset", "environment_state"]);
    } finally {
      await resources.close();
    }
  });

  it("a malformed answer is the environment's failure, naming the server and the tool", async () => {
    changesAnswer = () => "3 changes";
    const resources = await counterServer(true);
    try {
      const toolset = await openToolset({ domain: "counter", resources, task });
      const error = await toolset.environment!.changes!().catch((caught: unknown) => caught);
      expect(TfgrpoError.hasCode(error, "environment_unavailable")).toBe(true);
      expect((error as Error).message).toMatch(
        /domain counter: MCP server "counter": environment_changes did not answer a JSON list of changes/,
      );
      await toolset.close();
    } finally {
      await resources.close();
    }
  });
});
