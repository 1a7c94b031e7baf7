import { z } from "zod";
import { codeInterpreterOptionsSchema } from "../code-interpreter/code-interpreter.js";
import { webFetchOptionsSchema } from "../web-fetch/web-fetch.js";

export const toolNames = ["code_interpreter", "web_search", "web_fetch"] as const;
export const toolNameSchema = z.enum(toolNames);
export type ToolName = z.infer<typeof toolNameSchema>;

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
    .record(z.string(), z.array(toolNameSchema))
    .optional()
    .describe(
      "Tools per domain, overriding the defaults (math: code_interpreter; web: web_search, web_fetch)",
    ),
  codeInterpreter: codeInterpreterOptionsSchema.partial().optional(),
  search: searchConfigSchema.optional(),
  fetch: webFetchOptionsSchema.partial().optional(),
  fetchCache: z
    .enum(["rollout", "run"])
    .default("rollout")
    .describe("Share fetched pages between the rollouts of a run, or keep them per rollout"),
});
export type ToolsConfig = z.input<typeof toolsConfigSchema>;
