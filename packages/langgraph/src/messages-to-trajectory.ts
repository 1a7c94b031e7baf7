import type { BaseMessageLike } from "@langchain/core/messages";
import { toBaseMessages } from "./to-base-messages.js";

/** One message of a reported trajectory: plain JSON, what the library stores and the critic reads. */
export interface TrajectoryMessage {
  role: string;
  content: string;
  name?: string;
  toolCalls?: Array<{ name: string; args: unknown }>;
}

/**
 * A LangGraph run's messages as plain JSON (role, text, tool calls): small, stable across LangChain versions, and
 * free of provider metadata. Message-likes (`{ role, content }`, pairs, strings) are taken as LangChain takes them.
 * The library service scrubs secrets from it before storing it.
 */
export function messagesToTrajectory(messages: readonly BaseMessageLike[]): TrajectoryMessage[] {
  return toBaseMessages(messages).map((message) => {
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
