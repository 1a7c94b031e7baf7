// `tfgrpo mcp --domain math` as a real process (the CLI through tsx), driven by the MCP SDK's own Client over stdio
// and over Streamable HTTP: tools, experiences, outcomes, pinned versions and resources, bad arguments.
import { spawn } from "node:child_process";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { GetExperiencesReply } from "@tfgrpo/protocol";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createStore } from "@tfgrpo/store";
import { describe, expect, it } from "vitest";
import { runnerCliArgs as cliArgs, repositoryRoot as root } from "../testing/runner-cli.js";
import { emptyPromptBlockText } from "./create-mcp-server.js";

// No models config: similarity off, nothing to reach; no inherited workspace settings.
const env = { ...process.env, TFGRPO_CONFIG: "", TFGRPO_ACTOR_CONFIG: "", TFGRPO_DB: "" } as Record<
  string,
  string
>;

/** math@v1: two proven entries; math@v2 adds a candidate. */
async function workspace(db: string) {
  const store = await createStore(db);
  await store.applyOperations(
    "math",
    [
      { op: "add", text: "Check units before answering.", reason: "r", status: "active" },
      { op: "add", text: "Enumerate small cases with code first.", reason: "r", status: "active" },
    ],
    { parent: null, state: "committed", message: "first lessons" },
  );
  await store.applyOperations(
    "math",
    [{ op: "add", text: "Substitute the answer back into the equation.", reason: "r", status: "candidate" }],
    { parent: 1, state: "committed" },
  );
  return store;
}

const text = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  (result.content as Array<{ type: string; text?: string }>).map((part) => part.text ?? "").join("");

/** Everything the acceptance asks of the server, through one connected client. */
async function exercise(client: Client): Promise<string[]> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name).sort()).toEqual(["get_experiences", "report_outcome"]);
  const getTool = tools.find((tool) => tool.name === "get_experiences")!;
  expect(Object.keys(getTool.inputSchema.properties ?? {}).sort()).toEqual([
    "allowProposed",
    "domain",
    "family",
    "k",
    "task",
    "version",
  ]);
  expect(getTool.outputSchema).toBeDefined();

  const task = "How many positive divisors does 360 have?";
  const got = await client.callTool({ name: "get_experiences", arguments: { task } });
  expect(got.isError ?? false, text(got)).toBe(false);
  const reply = got.structuredContent as GetExperiencesReply;
  expect(reply).toMatchObject({ domain: "math", version: 2 });
  // The candidate G2 is varied: shown (the exploration arm) or withheld by a coin; the active ones mostly shown.
  const shownIds = reply.entries.map((e) => e.id);
  expect(shownIds.includes("G2")).toBe(reply.explorationIds.includes("G2"));
  expect(reply.explorationIds.every((id) => shownIds.includes(id))).toBe(true);
  expect(["G0", "G1", "G2"]).toEqual(expect.arrayContaining(shownIds));
  // The text is the prompt block, or its placeholder when this request's coins withheld every entry (about 1 in 70).
  expect(text(got)).toBe(reply.promptBlock || emptyPromptBlockText);

  const pinned = await client.callTool({ name: "get_experiences", arguments: { task, version: 1 } });
  expect(pinned.structuredContent).toMatchObject({ version: 1 });

  const reported = await client.callTool({
    name: "report_outcome",
    arguments: { selectionId: reply.selectionId, success: true, citedIds: ["G1"], feedback: "right answer" },
  });
  expect(reported.isError ?? false, text(reported)).toBe(false);
  expect(reported.structuredContent).toMatchObject({
    reward: 1,
    success: true,
    creditedIds: shownIds,
  });

  // Refusals are MCP tool errors naming what is wrong; the server keeps serving after each.
  const again = await client.callTool({
    name: "report_outcome",
    arguments: { selectionId: reply.selectionId, reward: 0 },
  });
  expect(again.isError).toBe(true);
  expect(text(again)).toMatch(
    new RegExp(`^conflict: selection ${reply.selectionId} was already reported at `),
  );
  const noResult = await client.callTool({
    name: "report_outcome",
    arguments: { selectionId: reply.selectionId },
  });
  expect(noResult.isError).toBe(true);
  expect(text(noResult)).toContain("give reward (0..1) or success (true/false)");
  const badVersion = await client.callTool({
    name: "get_experiences",
    arguments: { task, version: "three" },
  });
  expect(badVersion.isError).toBe(true);
  expect(text(badVersion)).toMatch(/Invalid arguments for tool get_experiences.*version/s);
  const noTask = await client.callTool({ name: "get_experiences", arguments: { version: 1 } });
  expect(noTask.isError).toBe(true);
  expect(text(noTask)).toContain("task");
  const missing = await client.callTool({ name: "get_experiences", arguments: { task, version: 99 } });
  expect(text(missing)).toBe("not_found: library math has no version 99");
  const unknown = await client.callTool({
    name: "report_outcome",
    arguments: { selectionId: "nope", success: true },
  });
  expect(text(unknown)).toMatch(/^not_found: unknown selection nope/);
  await expect(client.readResource({ uri: "tfgrpo://library/math/v/99" })).rejects.toThrow(/no version 99/);

  // Resources: the head and every version.
  const { resources } = await client.listResources();
  expect(resources.map((r) => r.uri).sort()).toEqual([
    "tfgrpo://library/math/head",
    "tfgrpo://library/math/v/1",
    "tfgrpo://library/math/v/2",
  ]);
  const head = JSON.parse(
    ((await client.readResource({ uri: "tfgrpo://library/math/head" })).contents[0] as { text: string }).text,
  );
  expect(head).toMatchObject({ domain: "math", version: 2, state: "committed" });
  // Shown once if the report's selection showed it (the pinned v1 selection was never reported).
  expect(head.entries.map((e: { id: string; stats: { shown: number } }) => [e.id, e.stats.shown])).toEqual(
    ["G0", "G1", "G2"].map((id) => [id, shownIds.includes(id) ? 1 : 0]),
  );
  const v1 = JSON.parse(
    ((await client.readResource({ uri: "tfgrpo://library/math/v/1" })).contents[0] as { text: string }).text,
  );
  expect(v1).toMatchObject({ version: 1, message: "first lessons" });
  expect(v1.entries).toHaveLength(2);

  // Still serving.
  // k = 1 keeps the candidate, which the coin then shows or withholds.
  const last = await client.callTool({ name: "get_experiences", arguments: { task: "2+2?", k: 1 } });
  const lastReply = last.structuredContent as GetExperiencesReply;
  expect(lastReply.entries.map((e) => e.id)).toEqual(lastReply.explorationIds.includes("G2") ? ["G2"] : []);
  return shownIds;
}

describe("tfgrpo mcp, driven by the MCP SDK client", () => {
  it("over stdio: the client spawns the CLI", async () => {
    await using temporary = await temporaryDirectory("tfgrpo-mcp-stdio-");
    const db = path.join(temporary.path, "workspace.db");
    const store = await workspace(db);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...cliArgs, "mcp", "--domain", "math", "--db", db],
      cwd: root,
      env,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: "stdio-test", version: "1.0.0" });
    try {
      await client.connect(transport);
      await exercise(client);
      expect(stderr).toContain("serving math@v2");
    } finally {
      await client.close();
    }
    // What the server stored is in the workspace database: three selections served (a refused one is not recorded).
    expect(await store.countOutcomes("math")).toEqual({
      served: 3,
      reported: 1,
      successes: 1,
      unconsumed: 1,
    });
    await store.close();
  });

  it("over Streamable HTTP: tfgrpo mcp --http 0", async () => {
    await using temporary = await temporaryDirectory("tfgrpo-mcp-http-");
    const db = path.join(temporary.path, "workspace.db");
    const store = await workspace(db);
    const child = spawn(
      process.execPath,
      [...cliArgs, "mcp", "--domain", "math", "--db", db, "--http", "0"],
      {
        cwd: root,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stderr = "";
        child.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
          const match = /on (http:\/\/\S+\/mcp)/.exec(stderr);
          if (match) resolve(match[1]!);
        });
        child.once("close", (code) => reject(new Error(`tfgrpo mcp exited (${code}): ${stderr}`)));
      });
      const clients = [
        new Client({ name: "http-a", version: "1" }),
        new Client({ name: "http-b", version: "1" }),
      ];
      await clients[0]!.connect(new StreamableHTTPClientTransport(new URL(url)));
      const shownIds = await exercise(clients[0]!);
      // A second client gets its own session on the same server and sees the first one's outcome.
      await clients[1]!.connect(new StreamableHTTPClientTransport(new URL(url)));
      const { contents } = await clients[1]!.readResource({ uri: "tfgrpo://library/math/head" });
      const entries: { id: string; stats: { shown: number } }[] = JSON.parse(
        (contents[0] as { text: string }).text,
      ).entries;
      expect(entries.map((e) => e.stats.shown)).toEqual(
        entries.map((e) => (shownIds.includes(e.id) ? 1 : 0)),
      );
      for (const client of clients) await client.close();
      // A request outside a session is refused in JSON-RPC form.
      const stray = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(stray.status).toBe(400);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
    expect(await store.countOutcomes("math")).toMatchObject({ reported: 1 });
    await store.close();
  });
});
