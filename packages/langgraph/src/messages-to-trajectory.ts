import type { BaseMessage } from "@langchain/core/messages";

/** One message of a reported trajectory: plain JSON, what the library stores and the critic reads. */
export interface TrajectoryMessage {
  role: string;
  content: string;
  name?: string;
  toolCalls?: Array<{ name: string; args: unknown }>;
}

/**
 * A LangGraph run's messages as plain JSON (role, text, tool calls): small, stable across LangChain versions, and
 * free of provider metadata. The library service scrubs secrets from it before storing it.
 */
export function messagesToTrajectory(messages: readonly BaseMessage[]): TrajectoryMessage[] {
  return messages.map((message) => {
    const toolCalls = (message as { tool_calls?: Array<{ name: string; args: unknown }> }).tool_calls;
    return {
      role: message.getType(),
      content: message.text,
      ...(message.name ? { name: message.name } : {}),
      ...(toolCalls && toolCalls.length > 0
        ? { toolCalls: toolCalls.map((call) => ({ name: call.name, args: call.args })) }
        : {}),
    };
  });
}
