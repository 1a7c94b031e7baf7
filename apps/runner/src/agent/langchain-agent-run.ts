import type { Message, ToolCallRecord } from "@tfgrpo/protocol";
import { type AgentRunRecord, storedToolCall } from "./agent-run-record.js";

/** What tfgrpo reads of a LangChain message (duck-typed: the team's LangChain copy is not tfgrpo's). */
interface LangChainMessage {
  getType(): string;
  text?: string;
  content?: unknown;
  name?: string;
  tool_calls?: Array<{ id?: string; name: string; args: unknown }>;
  tool_call_id?: string;
  status?: string;
  usage_metadata?: {
    input_tokens?: number;
    output_tokens?: number;
    input_token_details?: { cache_read?: number };
  };
}

/** A `createAgent` agent (LangChain's ReactAgent): it runs with `invoke({ messages })`. */
export interface LangChainAgent {
  invoke(input: { messages: unknown[] }, config?: Record<string, unknown>): Promise<{ messages?: unknown[] }>;
  stream(...args: unknown[]): unknown;
}

export function isLangChainAgent(value: unknown): value is LangChainAgent {
  const candidate = value as Partial<LangChainAgent> & { graph?: unknown; options?: unknown };
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.invoke === "function" &&
    typeof candidate.stream === "function" &&
    ("graph" in candidate || "options" in candidate)
  );
}

const roles: Record<string, Message["role"]> = {
  human: "user",
  ai: "assistant",
  tool: "tool",
  system: "system",
};

/**
 * One run of a `createAgent` agent on the conversation so far (the task as its one human message, or the turns of a
 * conversation): its final state's messages as the record, and as they are (the next turn passes them back, so a
 * checkpointer on the same thread replaces them by id instead of adding them twice).
 */
export async function runLangChainAgent(
  agent: LangChainAgent,
  input: {
    messages: unknown[];
    threadId: string;
    signal: AbortSignal;
    recursionLimit: number;
    storedChars: number;
  },
): Promise<{ record: AgentRunRecord; messages: unknown[] }> {
  const state = await agent.invoke(
    { messages: input.messages },
    {
      signal: input.signal,
      recursionLimit: input.recursionLimit,
      configurable: { thread_id: input.threadId },
    },
  );
  return { record: langChainRecord(state.messages ?? [], input.storedChars), messages: state.messages ?? [] };
}

/** A `createAgent` state's messages in tfgrpo's trajectory terms. */
function langChainRecord(stateMessages: readonly unknown[], storedChars: number): AgentRunRecord {
  const messages: Message[] = [];
  const toolCalls: ToolCallRecord[] = [];
  const pending = new Map<string, { id: string; name: string; input: unknown }>();
  let text = "";
  const usage = { calls: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
  for (const raw of stateMessages as LangChainMessage[]) {
    if (typeof raw?.getType !== "function") continue;
    const role = roles[raw.getType()];
    if (!role) continue;
    const content = textOf(raw);
    const calls = (raw.tool_calls ?? []).map((call, index) => ({
      id: call.id ?? `call_${messages.length}_${index}`,
      name: call.name,
      input: call.args,
    }));
    for (const call of calls) pending.set(call.id, call);
    messages.push({
      role,
      content,
      ...(calls.length > 0
        ? { toolCalls: calls.map((c) => ({ id: c.id, name: c.name, arguments: JSON.stringify(c.input) })) }
        : {}),
      ...(role === "tool" && raw.tool_call_id ? { toolCallId: raw.tool_call_id } : {}),
      ...(role === "tool" && raw.name ? { name: raw.name } : {}),
    });
    if (role === "tool" && raw.tool_call_id) {
      const call = pending.get(raw.tool_call_id) ?? {
        id: raw.tool_call_id,
        name: raw.name ?? "tool",
        input: null,
      };
      toolCalls.push(
        storedToolCall(call, content, storedChars, raw.status === "error" ? content : undefined),
      );
    }
    if (role === "assistant" && content.trim() !== "") text = content;
    if (role === "assistant") {
      usage.calls++;
      usage.inputTokens += raw.usage_metadata?.input_tokens ?? 0;
      usage.cachedInputTokens += raw.usage_metadata?.input_token_details?.cache_read ?? 0;
      usage.outputTokens += raw.usage_metadata?.output_tokens ?? 0;
    }
  }
  return { messages, toolCalls, text, usage };
}

function textOf(message: LangChainMessage): string {
  if (typeof message.text === "string") return message.text;
  return typeof message.content === "string" ? message.content : JSON.stringify(message.content ?? "");
}
