import { TfgrpoError } from "@tfgrpo/protocol";
import type { CodeSession } from "../code-interpreter/python-session.js";
import { createWebFetch, type WebFetch } from "../web-fetch/web-fetch.js";
import { createCodeInterpreterTool } from "./code-interpreter-tool.js";
import type { ModelTool } from "./model-facing-tool.js";
import { createToolResources, type ToolResources } from "./tool-resources.js";
import { defaultDomainTools, type ToolName, type ToolsConfig, toolNames } from "./tools-config.js";
import { createWebFetchTool } from "./web-fetch-tool.js";
import { createWebSearchTool } from "./web-search-tool.js";

/** The tools of one rollout: its own code session and fetch cache, closed together when the rollout ends. */
export interface Toolset {
  readonly domain: string;
  readonly names: readonly ToolName[];
  // biome-ignore lint/suspicious/noExplicitAny: tools of different input schemas in one list, as LangChain's bindTools takes them
  readonly tools: ModelTool<any>[];
  close(): Promise<void>;
}

export interface ToolsetOptions {
  domain: string;
  /** Used to build resources when none are given (they are then owned, and closed, by this toolset). */
  config?: ToolsConfig;
  /** Shared resources of the run (see createToolResources): the usual way when there are many rollouts. */
  resources?: ToolResources;
  /** Overrides the domain's tool list. */
  tools?: readonly ToolName[];
}

export function createToolset(options: ToolsetOptions): Toolset {
  const ownsResources = options.resources === undefined;
  const resources = options.resources ?? createToolResources(options.config ?? {});
  const configured = resources.config.domains?.[options.domain];
  if (
    options.tools === undefined &&
    configured?.some((entry) => !(toolNames as readonly string[]).includes(entry))
  ) {
    throw new TfgrpoError(
      "invalid_config",
      `domain ${options.domain} names MCP servers or tool modules: open its tools with openToolset`,
      { details: { domain: options.domain } },
    );
  }
  const names =
    options.tools ??
    (configured as readonly ToolName[] | undefined) ??
    defaultDomainTools[options.domain] ??
    (resources.search
      ? (["code_interpreter", "web_search", "web_fetch"] as const)
      : (["code_interpreter"] as const));

  let session: CodeSession | undefined;
  let fetcher: WebFetch | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: see Toolset.tools
  const tools: ModelTool<any>[] = [];
  for (const name of names) {
    if (name === "code_interpreter") {
      session = resources.interpreter.session();
      tools.push(createCodeInterpreterTool(session));
    } else if (name === "web_search") {
      if (!resources.search) {
        throw new TfgrpoError(
          "invalid_config",
          `domain ${options.domain} uses web_search but no search provider is configured`,
          {
            details: { field: "search", domain: options.domain },
          },
        );
      }
      tools.push(createWebSearchTool(resources.search));
    } else {
      fetcher = createWebFetch({
        ...(resources.config.fetch ?? {}),
        ...(resources.fetchCache ? { cache: resources.fetchCache } : {}),
      });
      tools.push(createWebFetchTool(fetcher));
    }
  }
  return {
    domain: options.domain,
    names: [...names],
    tools,
    async close() {
      await Promise.all([session?.close(), fetcher?.close()]);
      if (ownsResources) await resources.close();
    },
  };
}
