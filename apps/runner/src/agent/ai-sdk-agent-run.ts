import type { Message, ToolCallRecord } from "@tfgrpo/protocol";
import { type AgentRunRecord, storedToolCall } from "./agent-run-record.js";

/** An AI SDK agent (`ToolLoopAgent`, or any `Agent` of ai@6): it runs with `generate({ prompt })`. */
export interface AiSdkAgent {
  version: string;
  generate(input: { prompt: string; abortSignal?: AbortSignal }): Promise<AiSdkResult>;
}

interface AiSdkPart {
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
  response: { messages: Array<{ role: string; content: string | AiSdkPart[] }> };
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

/** One attempt of an AI SDK agent: the task as its prompt, its response messages as the record. */
export async function runAiSdkAgent(
  agent: AiSdkAgent,
  input: { question: string; signal: AbortSignal; storedChars: number },
): Promise<AgentRunRecord> {
  const result = await agent.generate({ prompt: input.question, abortSignal: input.signal });
  const messages: Message[] = [{ role: "user", content: input.question }];
  const toolCalls: ToolCallRecord[] = [];
  const calls = new Map<string, { id: string; name: string; input: unknown }>();
  for (const message of result.response.messages) {
    const parts: AiSdkPart[] =
      typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    if (message.role === "assistant") {
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
        toolCalls.push(storedToolCall(call, output, input.storedChars, failed ? output : undefined));
      }
    }
  }
  const usage = {
    calls: result.steps?.length ?? 0,
    inputTokens: result.totalUsage?.inputTokens ?? 0,
    cachedInputTokens: result.totalUsage?.cachedInputTokens ?? 0,
    outputTokens: result.totalUsage?.outputTokens ?? 0,
  };
  return { messages, toolCalls, text: result.text, usage };
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
