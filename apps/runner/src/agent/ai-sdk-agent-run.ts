import type { Message, ToolCallRecord } from "@tfgrpo/protocol";
import { type AgentRunRecord, storedToolCall } from "./agent-run-record.js";

/** A message as the AI SDK takes and returns it (`ModelMessage`). */
export interface AiSdkMessage {
  role: string;
  content: string | AiSdkPart[];
}

/** An AI SDK agent (`ToolLoopAgent`, or any `Agent` of ai@6): it runs with `generate({ prompt })` or `{ messages }`. */
export interface AiSdkAgent {
  version: string;
  generate(
    input: ({ prompt: string } | { messages: AiSdkMessage[] }) & { abortSignal?: AbortSignal },
  ): Promise<AiSdkResult>;
}

export interface AiSdkPart {
  type: string;
  text?: string;
  toolCallId?: string;
  toolName?: string;
  input?: unknown;
  output?: { type: string; value?: unknown };
}

interface AiSdkResult {
  text: string;
  steps?: unknown[];
  totalUsage?: { inputTokens?: number; outputTokens?: number; cachedInputTokens?: number };
  response: { messages: AiSdkMessage[] };
}

export function isAiSdkAgent(value: unknown): value is AiSdkAgent {
  const candidate = value as Partial<AiSdkAgent>;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.version === "string" &&
    candidate.version.startsWith("agent-") &&
    typeof candidate.generate === "function"
  );
}

/**
 * One run of an AI SDK agent on the conversation so far: the task alone as its prompt, a conversation as its
 * messages. The record covers the whole conversation (what it was given and its response messages); `messages` is
 * that conversation as the SDK's messages, for the next turn.
 */
export async function runAiSdkAgent(
  agent: AiSdkAgent,
  input: { messages: AiSdkMessage[]; signal: AbortSignal; storedChars: number },
): Promise<{ record: AgentRunRecord; messages: AiSdkMessage[] }> {
  const only = input.messages.length === 1 ? input.messages[0] : undefined;
  const result = await agent.generate(
    only?.role === "user" && typeof only.content === "string"
      ? { prompt: only.content, abortSignal: input.signal }
      : { messages: input.messages, abortSignal: input.signal },
  );
  const messages = [...input.messages, ...result.response.messages];
  const usage = {
    calls: result.steps?.length ?? 0,
    inputTokens: result.totalUsage?.inputTokens ?? 0,
    cachedInputTokens: result.totalUsage?.cachedInputTokens ?? 0,
    outputTokens: result.totalUsage?.outputTokens ?? 0,
  };
  return { record: { ...aiSdkRecord(messages, input.storedChars), text: result.text, usage }, messages };
}

/** AI SDK messages in tfgrpo's trajectory terms. */
function aiSdkRecord(sdkMessages: readonly AiSdkMessage[], storedChars: number): AgentRunRecord {
  const messages: Message[] = [];
  const toolCalls: ToolCallRecord[] = [];
  const calls = new Map<string, { id: string; name: string; input: unknown }>();
  for (const message of sdkMessages) {
    const parts: AiSdkPart[] =
      typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    if (message.role === "user") messages.push({ role: "user", content: textOfParts(parts) });
    else if (message.role === "assistant") {
      const requested = parts
        .filter((part) => part.type === "tool-call")
        .map((part) => ({ id: part.toolCallId ?? "", name: part.toolName ?? "tool", input: part.input }));
      for (const call of requested) calls.set(call.id, call);
      messages.push({
        role: "assistant",
        content: textOfParts(parts),
        ...(requested.length > 0
          ? {
              toolCalls: requested.map((c) => ({
                id: c.id,
                name: c.name,
                arguments: JSON.stringify(c.input),
              })),
            }
          : {}),
      });
    } else if (message.role === "tool") {
      for (const part of parts.filter((p) => p.type === "tool-result")) {
        const output = outputText(part.output);
        const id = part.toolCallId ?? "";
        messages.push({ role: "tool", content: output, toolCallId: id, name: part.toolName ?? "tool" });
        const call = calls.get(id) ?? { id, name: part.toolName ?? "tool", input: null };
        const failed = part.output?.type === "error-text" || part.output?.type === "error-json";
        toolCalls.push(storedToolCall(call, output, storedChars, failed ? output : undefined));
      }
    }
  }
  return { messages, toolCalls, text: "" };
}

function textOfParts(parts: readonly AiSdkPart[]): string {
  return parts
    .filter((part) => part.type === "text")
    .map((part) => part.text ?? "")
    .join("");
}

function outputText(output: AiSdkPart["output"]): string {
  if (!output) return "";
  return typeof output.value === "string" ? output.value : JSON.stringify(output.value ?? null);
}
