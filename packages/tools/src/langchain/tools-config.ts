import { builtInToolNames, toolEntrySchema } from "@tfgrpo/protocol";
import { z } from "zod";
import { codeInterpreterOptionsSchema } from "../code-interpreter/code-interpreter.js";
import { webFetchOptionsSchema } from "../web-fetch/web-fetch.js";

export const toolNames = builtInToolNames;
export { type ToolEntry, toolEntrySchema } from "@tfgrpo/protocol";
export const toolNameSchema = z.enum(toolNames);
export type ToolName = z.infer<typeof toolNameSchema>;

/** The per-call limits of MCP and module tools when their config sets none. */
export const defaultToolLimits = { timeoutMs: 30_000, maxOutputChars: 20_000 } as const;

const limitsShape = {
  timeoutMs: z
    .number()
    .int()
    .positive()
    .default(defaultToolLimits.timeoutMs)
    .describe(
      "A tool call that takes longer fails; for an environment server the attempt fails as infrastructure, " +
        "for a tool module the model reads a tool error",
    ),
  maxOutputChars: z
    .number()
    .int()
    .positive()
    .default(defaultToolLimits.maxOutputChars)
    .describe("A tool result longer than this is cut (head and tail kept) before the model sees it"),
};

/** An MCP server over stdio: the command is spawned by tfgrpo. `environment: process` spawns one per attempt. */
export const stdioServerSchema = z.strictObject({
  command: z.string().min(1).describe("Executable to spawn, e.g. node"),
  args: z.array(z.string()).default([]),
  env: z
    .record(z.string(), z.string())
    .default({})
    .describe("Added to a minimal environment (PATH, HOME, ...)"),
  cwd: z.string().min(1).optional(),
  environment: z
    .enum(["process", "shared"])
    .default("shared")
    .describe("process: a fresh server process per attempt (its own state); shared: one process for the run"),
  startTimeoutMs: z
    .number()
    .int()
    .positive()
    .default(20_000)
    .describe("Spawn + initialize must finish within this"),
  reuse: z
    .boolean()
    .default(false)
    .describe(
      "With environment: process, a warm pool's process serves attempt after attempt, reset for each, instead of " +
        "one process per attempt. Only for a server whose environment_reset restores everything an attempt can " +
        "see (tfgrpo's tau2-retail server: proven by its tests); off, each process serves one attempt",
    ),
  ...limitsShape,
});

/** An MCP server over Streamable HTTP. `environment: session` opens one MCP session (Mcp-Session-Id) per attempt. */
export const httpServerSchema = z.strictObject({
  url: z.string().url(),
  headers: z.record(z.string(), z.string()).default({}),
  environment: z
    .enum(["session", "shared"])
    .default("shared")
    .describe(
      "session: one MCP session per attempt (state isolated by session id); shared: one session for the run",
    ),
  startTimeoutMs: z.number().int().positive().default(20_000),
  ...limitsShape,
});

/** Warm environments of `environment: process | session` servers (docs/tools.md "A warm pool of environments"). */
export const environmentPoolSchema = z
  .strictObject({
    size: z
      .number()
      .int()
      .nonnegative()
      .describe(
        "Environments of each per-attempt server kept started (processes spawned and initialized, sessions " +
          "opened) ahead of the attempts; 0 starts each when its attempt needs it",
      ),
    maxStarting: z
      .number()
      .int()
      .positive()
      .default(2)
      .describe("Background start-ups at once (each takes CPU from the running attempts)"),
  })
  .describe(
    "Each environment still serves one attempt and is closed after it; the pool only starts them early",
  );
export type EnvironmentPoolConfig = z.output<typeof environmentPoolSchema>;

export const mcpServerSchema = z.union([stdioServerSchema, httpServerSchema]);
export type McpServerConfig = z.output<typeof mcpServerSchema>;

/** A JavaScript module exporting LangChain tools (see docs/tools.md "Bring your own MCP server and reward"). */
export const toolModuleSchema = z.strictObject({
  path: z.string().min(1).describe("File of the module; relative paths are read from the working directory"),
  ...limitsShape,
});

/** Tools per domain unless the config says otherwise; the paper's math agent has a code interpreter, its web agent search and browse. */
export const defaultDomainTools: Readonly<Record<string, readonly ToolName[]>> = {
  math: ["code_interpreter"],
  web: ["web_search", "web_fetch"],
};

export const searchConfigSchema = z.discriminatedUnion("provider", [
  z.object({
    provider: z.literal("local"),
    path: z.string().min(1).describe("JSONL file or folder of .html/.md/.jsonl documents"),
    baseUrl: z.string().url().optional().describe("URL prefix for files of a folder"),
  }),
  z.object({
    provider: z.literal("searxng"),
    baseUrl: z.string().url(),
    timeoutMs: z.number().int().positive().optional(),
  }),
  z.object({
    provider: z.literal("tavily"),
    apiKeyEnv: z.string().min(1).default("TAVILY_API_KEY").describe("Environment variable holding the key"),
    baseUrl: z.string().url().optional(),
  }),
  z.object({
    provider: z.literal("brave"),
    apiKeyEnv: z.string().min(1).default("BRAVE_API_KEY").describe("Environment variable holding the key"),
    baseUrl: z.string().url().optional(),
  }),
]);
export type SearchConfig = z.infer<typeof searchConfigSchema>;

/** The serializable tools section of a run config (YAML/JSON): no secrets, only the names of their variables. */
export const toolsConfigSchema = z.object({
  domains: z
    .record(z.string(), z.array(toolEntrySchema))
    .optional()
    .describe(
      "Tools per domain, overriding the defaults (math: code_interpreter; web: web_search, web_fetch)",
    ),
  servers: z
    .record(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/), mcpServerSchema)
    .optional()
    .describe("MCP servers by name, used by domains as mcp:<name>"),
  modules: z
    .record(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/), toolModuleSchema)
    .optional()
    .describe("Tool modules by name, used by domains as module:<name>"),
  codeInterpreter: codeInterpreterOptionsSchema.partial().optional(),
  environmentPool: environmentPoolSchema.optional(),
  search: searchConfigSchema.optional(),
  fetch: webFetchOptionsSchema.partial().optional(),
  fetchCache: z
    .enum(["rollout", "run"])
    .default("rollout")
    .describe("Share fetched pages between the rollouts of a run, or keep them per rollout"),
});
export type ToolsConfig = z.input<typeof toolsConfigSchema>;
