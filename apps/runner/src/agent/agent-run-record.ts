import type { Message, ToolCallRecord, UsageTotals } from "@tfgrpo/protocol";

/** What one attempt of a team's agent did, in tfgrpo's trajectory terms. */
export interface AgentRunRecord {
  /** The conversation after the system prompt: the task, the agent's turns, tool calls and results. */
  messages: Message[];
  toolCalls: ToolCallRecord[];
  /** The agent's final text (its answer, boxed or not). */
  text: string;
  /** The answer when the agent says it apart from its text (a plain function's `answer`). */
  answer?: string | null;
  /** Tokens of the agent's model calls, as its framework counted them (no price: the model is the team's). */
  usage?: Pick<UsageTotals, "calls" | "inputTokens" | "cachedInputTokens" | "outputTokens">;
}

/** A tool result as stored: cut to `storedChars`, with the mark the actor's records carry. */
export function storedToolCall(
  call: { id: string; name: string; input: unknown },
  output: string,
  storedChars: number,
  error?: string,
): ToolCallRecord {
  const truncated = output.length > storedChars;
  return {
    id: call.id,
    name: call.name,
    input: call.input,
    output: truncated ? output.slice(0, storedChars) : output,
    truncated,
    ...(error === undefined ? {} : { error }),
    // The agent runs its own tools: tfgrpo does not time them.
    durationMs: 0,
  };
}
