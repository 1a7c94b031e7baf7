import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { safeParseJson } from "@tfgrpo/protocol";
import type OpenAI from "openai";
import { htmlToText } from "../corpus-search.js";
import { corpusPageUrl } from "../server.js";
import { normalizeAnswer } from "../sim-judge.js";

export interface EpisodeExperience {
  id: string;
  text: string;
}

export interface RunSimEpisodeOptions {
  client: OpenAI;
  question: string;
  answer?: string;
  experiences?: readonly EpisodeExperience[];
  /** Request seed (one per attempt), as the actor sends it. */
  seed: number;
  /** "direct": no tools in the request. */
  mode?: "tools" | "direct";
  /** Needed for web tasks: the sim server's corpusUrl. */
  corpusUrl?: string;
  model?: string;
  maxSteps?: number;
  python?: string;
  /**
   * Outputs of programs already run, by source. The policy's programs are deterministic, so a test can run each
   * distinct program once for real and reuse its output when the same program comes again.
   */
  pythonCache?: Map<string, string>;
}

export interface EpisodeResult {
  finalAnswer: string | null;
  correct: boolean | null;
  cited: string[];
  steps: number;
  toolCalls: { name: string; arguments: string; output: string }[];
  messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[];
  usage: { promptTokens: number; cachedTokens: number; completionTokens: number };
}

const toolDefinitions: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  {
    type: "function",
    function: {
      name: "code_interpreter",
      description: "Run Python 3 code and return its stdout, stderr and exit code.",
      parameters: { type: "object", properties: { code: { type: "string" } }, required: ["code"] },
    },
  },
  {
    type: "function",
    function: {
      name: "web_search",
      description: "Search the web; returns a numbered list of title, url and snippet.",
      parameters: {
        type: "object",
        properties: { query: { type: "string" }, max_results: { type: "number" } },
        required: ["query"],
      },
    },
  },
  {
    type: "function",
    function: {
      name: "web_fetch",
      description: "Fetch a web page and return its main text.",
      parameters: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
    },
  },
];

/** The actor's system prompt, shaped as docs/prompt-contract.md describes. */
export function episodeSystemPrompt(experiences: readonly EpisodeExperience[]): string {
  const block =
    experiences.length > 0
      ? `\n\n# Learned Experiences\n${experiences.map((e) => `[${e.id}]. ${e.text}`).join("\n")}\n`
      : "\n";
  return (
    "You are a careful problem solver. Use code_interpreter to compute, web_search and web_fetch to look things up." +
    block +
    "\nCite the ids of the experiences you apply, like [G3]. End with the final answer in \\boxed{...}."
  );
}

function runPython(python: string, code: string): Promise<string> {
  return (async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-sim-python-"));
    try {
      const file = path.join(dir, "main.py");
      await writeFile(file, code, "utf8");
      return await new Promise<string>((resolve) => {
        execFile(
          python,
          // Isolated mode without site-packages: the policy's programs use the standard library only, and
          // skipping site halves Python's start-up time.
          ["-I", "-S", file],
          { cwd: dir, timeout: 20_000, env: { PATH: "/usr/bin:/bin" } },
          (error, stdout, stderr) => {
            const exitCode = error ? (typeof error.code === "number" ? error.code : 1) : 0;
            resolve(JSON.stringify({ stdout, stderr, exitCode, killed: error?.killed === true }));
          },
        );
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
}

/**
 * One rollout against the sim server with plain, unsandboxed tools: Python through child_process in a temp dir,
 * search and fetch on the sim's corpus. For the sim's own tests and benchmarks; the product's actor uses the
 * sandboxed tools of packages/tools.
 */
export async function runSimEpisode(options: RunSimEpisodeOptions): Promise<EpisodeResult> {
  const { client, question, seed } = options;
  const mode = options.mode ?? "tools";
  const python = options.python ?? "/usr/bin/python3";
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
    { role: "system", content: episodeSystemPrompt(options.experiences ?? []) },
    { role: "user", content: question },
  ];
  const toolCalls: EpisodeResult["toolCalls"] = [];
  const usage = { promptTokens: 0, cachedTokens: 0, completionTokens: 0 };
  const maxSteps = options.maxSteps ?? 8;
  let final: string | null = null;
  let steps = 0;
  for (; steps < maxSteps; steps++) {
    const completion = await client.chat.completions.create({
      model: options.model ?? "sim-actor",
      messages,
      seed,
      ...(mode === "tools" ? { tools: toolDefinitions } : {}),
    });
    usage.promptTokens += completion.usage?.prompt_tokens ?? 0;
    usage.cachedTokens += completion.usage?.prompt_tokens_details?.cached_tokens ?? 0;
    usage.completionTokens += completion.usage?.completion_tokens ?? 0;
    const message = completion.choices[0]!.message;
    messages.push({
      role: "assistant",
      content: message.content,
      ...(message.tool_calls && message.tool_calls.length > 0 ? { tool_calls: message.tool_calls } : {}),
    });
    const calls = (message.tool_calls ?? []).filter((call) => call.type === "function");
    if (calls.length === 0) {
      final = message.content ?? "";
      break;
    }
    for (const call of calls) {
      const args = safeParseJson<Record<string, unknown>>(call.function.arguments);
      let output: string;
      if (!args.success || typeof args.value !== "object" || args.value === null) {
        output = `Error: the arguments are not valid JSON (${args.success ? "not an object" : args.error})`;
      } else if (call.function.name === "code_interpreter") {
        const code = String(args.value.code ?? "");
        const cached = options.pythonCache?.get(code);
        output = cached ?? (await runPython(python, code));
        options.pythonCache?.set(code, output);
      } else if (call.function.name === "web_search" && options.corpusUrl) {
        const url = `${options.corpusUrl}/search?format=text&urls=served&q=${encodeURIComponent(String(args.value.query ?? ""))}&max_results=${Number(args.value.max_results ?? 5)}`;
        output = await (await fetch(url)).text();
      } else if (call.function.name === "web_fetch" && options.corpusUrl) {
        const response = await fetch(corpusPageUrl(options.corpusUrl, String(args.value.url ?? "")));
        output = response.ok ? htmlToText(await response.text()) : `Error: HTTP ${response.status}`;
      } else {
        output = `Error: unknown tool ${call.function.name}`;
      }
      toolCalls.push({ name: call.function.name, arguments: call.function.arguments, output });
      messages.push({ role: "tool", tool_call_id: call.id, content: output });
    }
  }
  const boxed = final === null ? null : normalizeAnswer(final);
  const cited = final === null ? [] : [...new Set([...final.matchAll(/\[(G\d+)\]/g)].map((m) => m[1]!))];
  return {
    finalAnswer: boxed,
    correct:
      options.answer === undefined || boxed === null ? null : boxed === normalizeAnswer(options.answer),
    cited,
    steps,
    toolCalls,
    messages,
    usage,
  };
}
