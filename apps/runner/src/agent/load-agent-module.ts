import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type RunOutcomeLike, type Task, TfgrpoError } from "@tfgrpo/protocol";
import type { AgentRunRecord } from "./agent-run-record.js";
import { type AiSdkAgent, isAiSdkAgent } from "./ai-sdk-agent-run.js";
import type { AgentFunction } from "./function-agent-run.js";
import { isLangChainAgent, type LangChainAgent } from "./langchain-agent-run.js";
import { loadOpenAIAgent, type OpenAIAgentsAgent } from "./openai-agents-agent-run.js";

export type LoadedAgent =
  | { kind: "langchain"; agent: LangChainAgent }
  | { kind: "ai-sdk"; agent: AiSdkAgent }
  | { kind: "function"; agent: AgentFunction }
  | { kind: "openai-agents"; agent: OpenAIAgentsAgent };

/** The team's own reward, when the module exports one: `reward(task, run)`. */
export type AgentReward = (
  task: Task,
  run: AgentRunRecord & { finalAnswer: string | null },
) => RunOutcomeLike | Promise<RunOutcomeLike>;

export interface AgentModule {
  file: string;
  agent: LoadedAgent;
  reward?: AgentReward;
}

export const agentShapes =
  "a createAgent agent (langchain) with experienceMiddleware, an AI SDK agent (ToolLoopAgent) whose model is wrapped with experienceMiddleware, an @openai/agents Agent (with its experienceRunner exported as `experience`), or an async function (input) => answer or agent";

/**
 * Imports an agent module (`learn --agent FILE`): its `default` or `agent` export is the agent, in one of three
 * shapes; an optional `reward` export scores attempts instead of tfgrpo's rewards. A module whose export is none of
 * the shapes is one error naming the file and the shapes.
 */
export async function loadAgentModule(file: string): Promise<AgentModule> {
  const resolved = path.resolve(file);
  if (!existsSync(resolved)) {
    throw new TfgrpoError("invalid_input", `agent module ${file}: no such file`, { details: { file } });
  }
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(resolved).href)) as Record<string, unknown>;
  } catch (error) {
    throw new TfgrpoError(
      "invalid_input",
      `agent module ${file} failed to load: ${(error as Error).message.split("\n")[0]}`,
      {
        details: { file },
        cause: error,
      },
    );
  }
  const exported = module.agent ?? module.default;
  const agent: LoadedAgent | undefined =
    recognizeAgent(exported) ??
    loadOpenAIAgent(module, exported, file) ??
    (typeof exported === "function" ? { kind: "function", agent: exported as AgentFunction } : undefined);
  if (!agent) {
    throw new TfgrpoError(
      "invalid_input",
      `agent module ${file} exports no agent of a known shape as \`agent\` or \`default\` (${describe(exported)}): export ${agentShapes}`,
      { details: { file } },
    );
  }
  if (module.reward !== undefined && typeof module.reward !== "function") {
    throw new TfgrpoError(
      "invalid_input",
      `agent module ${file}: \`reward\` must be a function (task, run) => reward, not ${describe(module.reward)}`,
      { details: { file } },
    );
  }
  return {
    file,
    agent,
    ...(module.reward === undefined ? {} : { reward: module.reward as AgentReward }),
  };
}

/** A ready agent of a known framework (an export, or what a module's function returned for an attempt). */
export function recognizeAgent(value: unknown): Exclude<LoadedAgent, { kind: "function" }> | undefined {
  if (isLangChainAgent(value)) return { kind: "langchain", agent: value };
  if (isAiSdkAgent(value)) return { kind: "ai-sdk", agent: value };
  return undefined;
}

export function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "object")
    return `an object with ${Object.keys(value).slice(0, 5).join(", ") || "no keys"}`;
  return `a ${typeof value}`;
}
