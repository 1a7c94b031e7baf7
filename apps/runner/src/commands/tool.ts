import { safeParseJson, TfgrpoError } from "@tfgrpo/protocol";
import {
  type CodeInterpreterOptions,
  codeInterpreterInputSchema,
  createCodeInterpreter,
  createCodeInterpreterTool,
  createSearchProvider,
  createWebFetch,
  createWebFetchTool,
  createWebSearch,
  createWebSearchTool,
  type SearchConfig,
  toolNames,
  webFetchInputSchema,
  webSearchInputSchema,
} from "@tfgrpo/tools";
import type { z } from "zod";
import type { ToolRunOptions } from "./tool-run-command-options.js";

export interface RunToolOptions {
  name: string;
  /** The tool's input as JSON text, exactly as a model would send it. */
  input: string;
  allowHosts?: string[];
  /** Search provider: a local corpus (JSONL file or folder), a SearXNG URL, or a key variable for Tavily/Brave. */
  corpus?: string;
  searxng?: string;
  tavilyKeyEnv?: string;
  braveKeyEnv?: string;
  timeoutMs?: number;
  allowUnsandboxed?: boolean;
  /** Print the text the model would read instead of the structured result. */
  modelView?: boolean;
}

function parseInput<T>(name: string, text: string, schema: z.ZodType<T>): T {
  const parsed = safeParseJson(text, schema);
  if (!parsed.success) {
    throw new TfgrpoError("invalid_input", `tool ${name}: --input: ${parsed.error}`, {
      details: { field: "input" },
    });
  }
  return parsed.value;
}

function searchConfig(options: RunToolOptions): SearchConfig {
  if (options.corpus) return { provider: "local", path: options.corpus };
  if (options.searxng) return { provider: "searxng", baseUrl: options.searxng };
  if (options.tavilyKeyEnv) return { provider: "tavily", apiKeyEnv: options.tavilyKeyEnv };
  if (options.braveKeyEnv) return { provider: "brave", apiKeyEnv: options.braveKeyEnv };
  throw new TfgrpoError(
    "invalid_config",
    "tool web_search needs a provider: --corpus PATH, --searxng URL, --tavily-key-env NAME or --brave-key-env NAME",
  );
}

/** Runs one tool once, as the actor would, and returns what to print (a JSON value, or the model's text). */
export async function runTool(options: RunToolOptions): Promise<unknown> {
  switch (options.name) {
    case "code_interpreter": {
      const input = parseInput(options.name, options.input, codeInterpreterInputSchema);
      const interpreterOptions: CodeInterpreterOptions = {
        ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.allowUnsandboxed ? { allowUnsandboxed: true } : {}),
      };
      const interpreter = createCodeInterpreter(interpreterOptions);
      try {
        if (options.modelView) return await createCodeInterpreterTool(interpreter).invoke(input);
        return await interpreter.run(input.code);
      } finally {
        await interpreter.close();
      }
    }
    case "web_search": {
      const input = parseInput(options.name, options.input, webSearchInputSchema);
      const search = createWebSearch({ provider: createSearchProvider(searchConfig(options)) });
      if (options.modelView) return createWebSearchTool(search).invoke(input);
      return search.search(
        input.query,
        input.max_results === undefined ? {} : { maxResults: input.max_results },
      );
    }
    case "web_fetch": {
      const input = parseInput(options.name, options.input, webFetchInputSchema);
      const fetcher = createWebFetch({
        allowHosts: options.allowHosts ?? [],
        ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      });
      try {
        if (options.modelView) return await createWebFetchTool(fetcher).invoke(input);
        return await fetcher.fetch(input.url, input.find === undefined ? {} : { find: input.find });
      } finally {
        await fetcher.close();
      }
    }
    default:
      throw new TfgrpoError("invalid_input", `unknown tool ${options.name}; tools: ${toolNames.join(", ")}`, {
        details: { field: "name" },
      });
  }
}

/** `tfgrpo tool run <name>`: one tool call from the command line's flags, its result printed. */
export async function toolRun(name: string, flags: ToolRunOptions): Promise<void> {
  const result = await runTool({
    name,
    input: flags.input,
    allowHosts: flags.allowHost,
    ...(flags.corpus ? { corpus: flags.corpus } : {}),
    ...(flags.searxng ? { searxng: flags.searxng } : {}),
    ...(flags.tavilyKeyEnv ? { tavilyKeyEnv: flags.tavilyKeyEnv } : {}),
    ...(flags.braveKeyEnv ? { braveKeyEnv: flags.braveKeyEnv } : {}),
    ...(flags.timeoutMs ? { timeoutMs: flags.timeoutMs } : {}),
    ...(flags.allowUnsandboxed ? { allowUnsandboxed: true } : {}),
    ...(flags.modelView ? { modelView: true } : {}),
  });
  const text = typeof result === "string" ? result : JSON.stringify(result, null, 2);
  process.stdout.write(`${text}\n`);
}
