import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadQuixbugsProgram } from "../program/quixbugs-program.js";
import { quixbugsDir } from "../quixbugs-fixture.test-support.js";
import { toRepairTask } from "../repair-task.js";
import { type RepairMcpHttpHandle, serveRepairMcpHttp } from "./serve-repair-mcp.js";

const gcd = loadQuixbugsProgram(quixbugsDir, "gcd");
const task = toRepairTask(gcd);

const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  (result.content as { type: string; text: string }[]).map((part) => part.text).join("");

async function connect(transport: Transport): Promise<Client> {
  const client = new Client({ name: "repair-test", version: "0.0.0" });
  await client.connect(transport);
  return client;
}

async function end(client: Client): Promise<void> {
  await (client.transport as StreamableHTTPClientTransport).terminateSession();
  await client.close();
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  textOf(await client.callTool({ name, arguments: args }));

const fileOf = async (client: Client) =>
  (JSON.parse(await call(client, "environment_state")) as { files: Record<string, string> }).files["gcd.py"]!;

describe("the code-repair MCP server over real transports", () => {
  let http: RepairMcpHttpHandle;
  const parent = mkdtempSync(path.join(tmpdir(), "repair-mcp-test-"));
  beforeAll(async () => {
    http = await serveRepairMcpHttp({
      dataDir: quixbugsDir,
      port: 0,
      sandbox: { caseTimeoutMs: 1000 },
      workspaceParent: parent,
    });
  });
  afterAll(async () => {
    await http.close();
  });

  it("lists the workspace tools and the control tools", async () => {
    const client = await connect(new StreamableHTTPClientTransport(new URL(http.url)));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "edit_file",
      "environment_reset",
      "environment_state",
      "read_file",
      "run_python",
      "run_tests",
      "write_file",
    ]);
    const edit = tools.find((tool) => tool.name === "edit_file")!;
    expect(edit.inputSchema.required).toEqual(["old_text", "new_text"]);
    await end(client);
  });

  it("a reset is a fresh copy; the tools read, edit, run and test it; a closed session removes its workspace", async () => {
    const client = await connect(new StreamableHTTPClientTransport(new URL(http.url)));
    expect(await call(client, "environment_reset", { task })).toBe("reset");
    expect(readdirSync(parent)).toHaveLength(1);
    expect(await call(client, "read_file")).toContain("  5|         return gcd(a % b, b)");
    expect(await call(client, "read_file", { path: "tests/test_gcd.py" })).toContain("def test_gcd");
    const outside = await client.callTool({ name: "read_file", arguments: { path: "../../etc/passwd" } });
    expect(outside.isError).toBe(true);
    expect(await call(client, "run_tests")).toMatch(/^visible tests: 1\/3 passed\nERROR test_gcd\[1\]/);
    const refused = await client.callTool({
      name: "edit_file",
      arguments: { old_text: "return a % b", new_text: "x" },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("does not occur");
    await call(client, "edit_file", { old_text: "gcd(a % b, b)", new_text: "gcd(b, a % b)" });
    expect(await call(client, "run_tests")).toBe("visible tests: 3/3 passed");
    expect(
      JSON.parse(await call(client, "run_python", { code: "from gcd import gcd\ngcd(35, 21)" })),
    ).toMatchObject({
      stdout: "7\n",
      exitCode: 0,
    });
    expect(await fileOf(client)).toContain("gcd(b, a % b)");
    await call(client, "environment_reset", { task });
    expect(await fileOf(client)).toBe(gcd.source);
    expect(readdirSync(parent)).toHaveLength(1);
    await end(client);
    expect(http.sessions).toBe(0);
    await expect.poll(() => readdirSync(parent)).toEqual([]);
  }, 60_000);

  it("four attempts at once, each editing the same program its own way, see only their own edits", async () => {
    const clients = await Promise.all(
      [0, 1, 2, 3].map(() => connect(new StreamableHTTPClientTransport(new URL(http.url)))),
    );
    await Promise.all(clients.map((client) => call(client, "environment_reset", { task })));
    const edits = ["gcd(b, a % b)", "gcd(a, b % a)", "gcd(a % b, a)", "gcd(b % a, b)"];
    await Promise.all(
      clients.map((client, i) =>
        call(client, "edit_file", { old_text: "gcd(a % b, b)", new_text: edits[i]! }),
      ),
    );
    const results = await Promise.all(clients.map((client) => call(client, "run_tests")));
    expect(results[0]).toBe("visible tests: 3/3 passed");
    const files = await Promise.all(clients.map((client) => fileOf(client)));
    files.forEach((file, i) => {
      edits.forEach((edit, j) => {
        expect(file.includes(edit), `attempt ${i} sees edit ${j}`).toBe(i === j);
      });
    });
    await Promise.all(clients.map((client) => end(client)));
  }, 90_000);

  it("stdio: a process per attempt, each with its own workspace, removed when the process ends", async () => {
    const entry = fileURLToPath(new URL("./stdio-entry.test-support.ts", import.meta.url));
    const spawn = () =>
      connect(
        new StdioClientTransport({
          command: process.execPath,
          args: ["--conditions=source", "--import", "tsx", entry],
          stderr: "pipe",
        }),
      );
    const [a, b] = await Promise.all([spawn(), spawn()]);
    await Promise.all([call(a, "environment_reset", { task }), call(b, "environment_reset", { task })]);
    await call(a, "write_file", { content: "def gcd(a, b):\n    return 1\n" });
    expect(await fileOf(a)).toBe("def gcd(a, b):\n    return 1\n");
    expect(await fileOf(b)).toBe(gcd.source);
    const listing = await call(a, "run_python", { code: "import os; print(os.getcwd())" });
    expect(listing).toContain("/tmp/repair-");
    await a.close();
    await b.close();
  }, 60_000);
});
