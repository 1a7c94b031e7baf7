import { formatZodIssues, TfgrpoError } from "@tfgrpo/protocol";
import { type CodeInterpreter, createCodeInterpreter } from "../code-interpreter/code-interpreter.js";
import { type AttemptEnvironments, createAttemptEnvironments } from "../mcp/attempt-environments.js";
import { createSharedConnections, type SharedConnections } from "../mcp/shared-connections.js";
import { createFetchCache, type FetchCache } from "../web-fetch/fetch-cache.js";
import { createBraveProvider } from "../web-search/brave-provider.js";
import { createLocalCorpusProvider } from "../web-search/local-corpus-provider.js";
import type { SearchProvider } from "../web-search/search-provider.js";
import { createSearxngProvider } from "../web-search/searxng-provider.js";
import { createTavilyProvider } from "../web-search/tavily-provider.js";
import { createWebSearch, type WebSearch } from "../web-search/web-search.js";
import { type SearchConfig, type ToolsConfig, toolsConfigSchema } from "./tools-config.js";

/**
 * What the toolsets of a run share: one code interpreter (its sandbox probe is done once), one search index (a
 * corpus is indexed once) and, when configured, one fetch cache. Toolsets (one per rollout) are cheap on top.
 */
export interface ToolResources {
  readonly config: ReturnType<typeof toolsConfigSchema.parse>;
  readonly interpreter: CodeInterpreter;
  /** Undefined when no search provider is configured. */
  readonly search: WebSearch | undefined;
  /** The run-wide fetch cache when `fetchCache: "run"`. */
  readonly fetchCache: FetchCache | undefined;
  /** Connections to `environment: shared` MCP servers (per-attempt ones belong to their toolset). */
  readonly mcp: SharedConnections;
  /** Per-attempt environments (`environment: process | session`), from a warm pool when `environmentPool` is set. */
  readonly environments: AttemptEnvironments;
  close(): Promise<void>;
}

export function createSearchProvider(
  config: SearchConfig,
  env: NodeJS.ProcessEnv = process.env,
): SearchProvider {
  switch (config.provider) {
    case "local":
      return createLocalCorpusProvider({
        path: config.path,
        ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
      });
    case "searxng":
      return createSearxngProvider({
        baseUrl: config.baseUrl,
        ...(config.timeoutMs ? { timeoutMs: config.timeoutMs } : {}),
      });
    case "tavily":
      return createTavilyProvider({
        apiKeyEnv: config.apiKeyEnv,
        env,
        ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
      });
    case "brave":
      return createBraveProvider({
        apiKeyEnv: config.apiKeyEnv,
        env,
        ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
      });
  }
}

export function createToolResources(
  config: ToolsConfig = {},
  dependencies: { interpreter?: CodeInterpreter; search?: WebSearch; env?: NodeJS.ProcessEnv } = {},
): ToolResources {
  const parsed = toolsConfigSchema.safeParse(config);
  if (!parsed.success)
    throw new TfgrpoError("invalid_config", `tools config: ${formatZodIssues(parsed.error.issues)}`);
  const resolved = parsed.data;
  const interpreter = dependencies.interpreter ?? createCodeInterpreter(resolved.codeInterpreter ?? {});
  const search =
    dependencies.search ??
    (resolved.search
      ? createWebSearch({ provider: createSearchProvider(resolved.search, dependencies.env) })
      : undefined);
  const mcp = createSharedConnections();
  const environments = createAttemptEnvironments(resolved.environmentPool);
  return {
    config: resolved,
    interpreter,
    search,
    fetchCache: resolved.fetchCache === "run" ? createFetchCache() : undefined,
    mcp,
    environments,
    async close() {
      await Promise.all([mcp.close(), environments.close()]);
      // An injected interpreter belongs to the caller.
      if (!dependencies.interpreter) await interpreter.close();
    },
  };
}
