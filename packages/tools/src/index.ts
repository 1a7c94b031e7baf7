export {
  type CodeInterpreter,
  type CodeInterpreterOptions,
  codeInterpreterOptionsSchema,
  createCodeInterpreter,
  defaultPreImports,
  type SandboxPoolOptions,
  sandboxPoolOptionsSchema,
} from "./code-interpreter/code-interpreter.js";
export type { CodeResult, KilledReason, SandboxKind } from "./code-interpreter/code-result.js";
export { autoPreImportCandidates } from "./code-interpreter/import-tracker.js";
export type { CodeSession } from "./code-interpreter/python-session.js";
export type { SandboxPoolStats } from "./code-interpreter/sandbox-pool.js";
export {
  codeInterpreterInputSchema,
  codeResultForModel,
  createCodeInterpreterTool,
} from "./langchain/code-interpreter-tool.js";
export { defaultEnvironmentPoolSize, withEnvironmentPool } from "./langchain/environment-pool-setting.js";
export {
  createModelTool,
  type ModelTool,
  type ModelToolDefinition,
  toolErrorText,
} from "./langchain/model-facing-tool.js";
export {
  type AttemptEnvironment,
  type AttemptToolset,
  checkToolset,
  environmentResetTool,
  environmentStateTool,
  environmentToolPrefix,
  type OpenToolsetOptions,
  openToolset,
} from "./langchain/open-toolset.js";
export { defaultActorSandboxPoolSize, withSandboxPool } from "./langchain/sandbox-pool-setting.js";
export { servedToolOf } from "./langchain/served-tool.js";
export { createSearchProvider, createToolResources, type ToolResources } from "./langchain/tool-resources.js";
export {
  defaultDomainTools,
  type EnvironmentPoolConfig,
  environmentPoolSchema,
  httpServerSchema,
  type McpServerConfig,
  mcpServerSchema,
  type SearchConfig,
  searchConfigSchema,
  stdioServerSchema,
  type ToolEntry,
  type ToolName,
  type ToolsConfig,
  toolEntrySchema,
  toolModuleSchema,
  toolNameSchema,
  toolNames,
  toolsConfigSchema,
} from "./langchain/tools-config.js";
export { createToolset, type Toolset, type ToolsetOptions } from "./langchain/toolset.js";
export { createWebFetchTool, pageForModel, webFetchInputSchema } from "./langchain/web-fetch-tool.js";
export {
  createWebSearchTool,
  searchResultsForModel,
  webSearchInputSchema,
} from "./langchain/web-search-tool.js";
export type { AttemptEnvironments, EnvironmentPoolSetting } from "./mcp/attempt-environments.js";
export {
  createEnvironmentPool,
  type EnvironmentPool,
  type EnvironmentPoolOptions,
  type EnvironmentPoolStats,
} from "./mcp/environment-pool.js";
export {
  connectMcpServer,
  type McpCallResult,
  type McpConnection,
  type McpToolInfo,
} from "./mcp/mcp-connection.js";
export {
  type ServedTools,
  type ServeToolsOptions,
  serveToolsOverMcp,
} from "./mcp/serve-tools-over-mcp.js";
export { loadToolModule, type ToolModuleContext } from "./mcp/tool-module.js";
export { toolSchemaProblem } from "./mcp/tool-schema-problem.js";
export { hostPort, isAllowedHost, isPrivateAddress } from "./web-fetch/address-policy.js";
export { createFetchCache, type FetchCache } from "./web-fetch/fetch-cache.js";
export { findInPage, type PageMatch } from "./web-fetch/find-in-page.js";
export { htmlToMarkdown, type PageMarkdown } from "./web-fetch/html-to-markdown.js";
export {
  createWebFetch,
  type WebFetch,
  type WebFetchOptions,
  type WebFetchResult,
  webFetchOptionsSchema,
} from "./web-fetch/web-fetch.js";
export { type BraveProviderOptions, createBraveProvider } from "./web-search/brave-provider.js";
export {
  type CorpusDocument,
  corpusDocumentSchema,
  createLocalCorpusProvider,
  type LocalCorpusProvider,
  type LocalCorpusProviderOptions,
} from "./web-search/local-corpus-provider.js";
export type { SearchOptions, SearchProvider, SearchResult } from "./web-search/search-provider.js";
export { createSearxngProvider, type SearxngProviderOptions } from "./web-search/searxng-provider.js";
export { createTavilyProvider, type TavilyProviderOptions } from "./web-search/tavily-provider.js";
export { createWebSearch, type WebSearch, type WebSearchOptions } from "./web-search/web-search.js";
