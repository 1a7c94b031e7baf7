import {
  type ExperienceRunner,
  isExperienceRunner,
  isOpenAIAgent,
  itemsToMessages,
  type OpenAIAgentLike,
} from "@tfgrpo/openai-agents";
import { safeParseJson, TfgrpoError, type ToolCallRecord } from "@tfgrpo/protocol";
import { type AgentRunRecord, storedToolCall } from "./agent-run-record.js";

/** An OpenAI Agents SDK `Agent` and the `experienceRunner` the module runs it with. */
export interface OpenAIAgentsAgent {
  agent: OpenAIAgentLike;
  runner: ExperienceRunner;
}

/** What tfgrpo reads of a run's usage (`result.state.usage`). */
interface RunUsage {
  requests?: number;
  inputTokens?: number;
  outputTokens?: number;
  inputTokensDetails?: Array<{ cached_tokens?: number }> | { cached_tokens?: number };
}

/**
 * The module's `@openai/agents` Agent, when its `agent`/`default` export is one: tfgrpo runs it through the
 * `experienceRunner` the module exports as `experience` (the team's own SDK's `run` with tfgrpo's input filter).
 */
export function loadOpenAIAgent(
  module: Record<string, unknown>,
  exported: unknown,
  file: string,
): { kind: "openai-agents"; agent: OpenAIAgentsAgent } | undefined {
  if (!isOpenAIAgent(exported)) return undefined;
  if (!isExperienceRunner(module.experience)) {
    throw new TfgrpoError(
      "invalid_input",
      `agent module ${file} exports an @openai/agents Agent: export the experienceRunner that runs it as \`experience\` too (export const experience = experienceRunner({ run, domain }) from @tfgrpo/openai-agents)`,
      { details: { file } },
    );
  }
  return { kind: "openai-agents", agent: { agent: exported, runner: module.experience } };
}

/**
 * One turn of an OpenAI Agents SDK agent: the task (or the conversation so far, as the SDK's own history items with
 * the user's new message) as its input, the run's history as the record and as the next turn's input.
 */
export async function runOpenAIAgent(
  { agent, runner }: OpenAIAgentsAgent,
  input: { input: string | unknown[]; signal: AbortSignal; storedChars: number },
): Promise<{ record: AgentRunRecord; history: unknown[] }> {
  const result = await runner.run(agent, input.input, { signal: input.signal });
  if ((result.interruptions?.length ?? 0) > 0) {
    throw new TfgrpoError(
      "invalid_input",
      `the agent ${agent.name} stopped for a tool approval (needsApproval): tfgrpo runs attempts with nobody to approve; approve those tools when the agent runs under tfgrpo`,
    );
  }
  const messages = itemsToMessages(result.history);
  const calls = new Map<string, { id: string; name: string; input: unknown }>();
  const toolCalls: ToolCallRecord[] = [];
  for (const message of messages) {
    for (const call of message.toolCalls ?? []) {
      calls.set(call.id, { id: call.id, name: call.name, input: parseArguments(call.arguments) });
    }
    if (message.role === "tool") {
      const id = message.toolCallId ?? "";
      const call = calls.get(id) ?? { id, name: message.name ?? "tool", input: null };
      toolCalls.push(storedToolCall(call, message.content, input.storedChars));
    }
  }
  const output = result.finalOutput;
  const text =
    output === undefined || output === null
      ? ""
      : typeof output === "string"
        ? output
        : JSON.stringify(output);
  const usage = (result.state as { usage?: RunUsage }).usage;
  const details = usage?.inputTokensDetails;
  const cached = (Array.isArray(details) ? details : details ? [details] : []).reduce(
    (sum, entry) => sum + (entry.cached_tokens ?? 0),
    0,
  );
  const record: AgentRunRecord = {
    messages,
    toolCalls,
    text,
    usage: {
      calls: usage?.requests ?? 0,
      inputTokens: usage?.inputTokens ?? 0,
      cachedInputTokens: cached,
      outputTokens: usage?.outputTokens ?? 0,
    },
  };
  return { record, history: [...(result.history as unknown[])] };
}

/** A call's arguments as the model sent them: parsed JSON, or the text when it is not JSON. */
function parseArguments(text: string): unknown {
  const parsed = safeParseJson(text);
  return parsed.success ? parsed.value : text;
}
