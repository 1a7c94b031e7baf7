import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { TfgrpoError } from "@tfgrpo/protocol";
import { z } from "zod";
import type { ProgramCatalog } from "../program/program-catalog.js";
import { programOf } from "../repair-task.js";
import { caseRunText, type RepairSandbox, snippetResultText } from "../sandbox/repair-sandbox.js";
import { createRepairWorkspace, type RepairWorkspace } from "../workspace/repair-workspace.js";

/** Control tools: never shown to the model (the `environment_` prefix is the contract with the actor's tool loader). */
export const environmentResetTool = "environment_reset";
export const environmentStateTool = "environment_state";

export interface RepairMcpServerOptions {
  catalog: ProgramCatalog;
  /** Shared by the sessions of one process: each run is its own sandbox. */
  sandbox: RepairSandbox;
  /** Where workspaces are made (default the OS temp dir). */
  workspaceParent?: string;
  name?: string;
  version?: string;
}

const text = (value: string, isError = false): CallToolResult => ({
  content: [{ type: "text", text: value }],
  ...(isError ? { isError: true } : {}),
});

const numbered = (source: string) =>
  source
    .replace(/\n$/, "")
    .split("\n")
    .map((line, index) => `${String(index + 1).padStart(3)}| ${line}`)
    .join("\n");

/**
 * An MCP server with one workspace: `environment_reset` (`{ task }`: a fresh temp dir with that task's defective
 * program and visible tests), the tools an attempt uses on it, and `environment_state` (`{}`: the program file as it
 * is now). One server per MCP connection, so a stdio process or an HTTP session is one attempt's workspace; the
 * workspace is removed when the connection closes or the next reset replaces it.
 */
export function createRepairMcpServer(options: RepairMcpServerOptions): McpServer {
  let workspace: RepairWorkspace | undefined;
  const server = new McpServer(
    { name: options.name ?? "code-repair", version: options.version ?? "0.1.0" },
    {
      instructions:
        "Code repair (QuixBugs): one workspace holding a defective Python program and its visible tests. Call " +
        "environment_reset with the task before an attempt and environment_state after it; the other tools are the agent's.",
    },
  );
  const open = (): RepairWorkspace => {
    if (!workspace) {
      throw new TfgrpoError(
        "invalid_input",
        "no program in this workspace yet (environment_reset with the task first)",
      );
    }
    return workspace;
  };
  const tool = <Shape extends z.ZodRawShape>(
    name: string,
    description: string,
    shape: Shape,
    run: (args: z.infer<z.ZodObject<Shape>>) => Promise<string>,
  ) => {
    server.registerTool(name, { description, inputSchema: shape }, (async (
      args: z.infer<z.ZodObject<Shape>>,
    ) => {
      try {
        return text(await run(args));
      } catch (error) {
        if (TfgrpoError.isInstance(error) && error.code === "invalid_input")
          return text(`Error: ${error.message}`, true);
        throw error;
      }
    }) as never);
  };

  tool(
    "read_file",
    "Read a file of the workspace, with line numbers (default: the program). The visible tests are under tests/.",
    {
      path: z
        .string()
        .optional()
        .describe(
          "The file's path in the workspace, e.g. gcd.py or tests/test_gcd.py (default: the program)",
        ),
    },
    async ({ path }) => {
      const current = open();
      const content = await current.read(path);
      const others = current.listFiles();
      return `${path ?? current.fileName}:\n${numbered(content)}${path === undefined && others.length > 0 ? `\n(other files: ${others.join(", ")})` : ""}`;
    },
  );
  tool(
    "write_file",
    "Replace the whole program file with new content (the program only; the tests cannot be changed).",
    { content: z.string().describe("The complete new text of the program file") },
    async ({ content }) => {
      const current = open();
      await current.write(content);
      return `wrote ${current.fileName} (${content.split("\n").length} lines)`;
    },
  );
  tool(
    "edit_file",
    "Replace one exact piece of the program's text with another (it must occur exactly once in the file).",
    {
      old_text: z.string().describe("The exact text to replace, spaces and indentation included"),
      new_text: z.string().describe("The text to put in its place"),
    },
    async ({ old_text, new_text }) => {
      const current = open();
      await current.edit(old_text, new_text);
      return `edited ${current.fileName}`;
    },
  );
  tool(
    "run_python",
    "Run a Python 3 snippet in a sandbox next to the program (import it with `from NAME import NAME`); prints and the " +
      "value of a final expression come back as JSON (stdout, stderr, exitCode, killed). Time and memory are limited.",
    { code: z.string().min(1).describe("Python 3 code to run against the program") },
    async ({ code }) => {
      const current = open();
      return snippetResultText(await current.runPython(code));
    },
  );
  tool(
    "run_tests",
    "Run the program's visible tests in the sandbox, each case with its own time limit: how many pass, and how each " +
      "other case failed (FAIL: wrong output, ERROR: an exception, TIMEOUT: no result in time).",
    {},
    async () => caseRunText(await open().runTests(), "visible tests"),
  );
  server.registerTool(
    environmentResetTool,
    {
      description: "Control: a fresh workspace for a task (its defective program and visible tests).",
      inputSchema: { task: z.unknown().describe("The task (tfgrpo Task JSON) with meta.program") },
    },
    async (args: { task?: unknown }) => {
      const program = options.catalog.get(programOf(args.task));
      const previous = workspace;
      workspace = await createRepairWorkspace({
        program,
        sandbox: options.sandbox,
        ...(options.workspaceParent ? { parent: options.workspaceParent } : {}),
      });
      await previous?.close();
      return text("reset");
    },
  );
  server.registerTool(
    environmentStateTool,
    { description: "Control: the workspace's program file as JSON ({program, files}).", inputSchema: {} },
    async () => text(JSON.stringify(workspace ? await workspace.state() : { program: null, files: {} })),
  );
  const closeWorkspace = async () => {
    const current = workspace;
    workspace = undefined;
    await current?.close();
  };
  const previousOnClose = server.server.onclose;
  server.server.onclose = () => {
    previousOnClose?.();
    void closeWorkspace();
  };
  return server;
}
