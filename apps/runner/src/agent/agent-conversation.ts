import type { UserConversation } from "@tfgrpo/actor";
import type { StopReason } from "@tfgrpo/protocol";
import type { AgentRunRecord } from "./agent-run-record.js";
import type { AgentSession } from "./agent-session.js";

export interface AgentConversationResult {
  record: AgentRunRecord;
  stopReason: StopReason;
  error?: string;
}

/**
 * A conversational attempt (a task with `meta.userScenario`) of a team's agent against tfgrpo's `user` role, as
 * tfgrpo's own actor holds one: the agent's greeting, the user's opening, then the agent's turns (each on the
 * conversation so far, its tool calls inside it) and the user's replies, until the user ends it (its stop token) or
 * `maxTurns` user replies. The record is the whole conversation, the user's last message included.
 */
export async function runAgentConversation(input: {
  session: AgentSession;
  conversation: UserConversation;
  maxTurns: number;
  signal: AbortSignal;
}): Promise<AgentConversationResult> {
  const { session, conversation } = input;
  const greeting = { role: "assistant" as const, content: conversation.greeting };
  const opened = await conversation.open(input.signal);
  let record: AgentRunRecord = {
    messages: [greeting, { role: "user", content: opened.text }],
    toolCalls: [],
    text: "",
  };
  if (opened.ended) {
    return {
      record,
      stopReason: "no_answer",
      error: "the user ended the conversation before the agent spoke",
    };
  }
  let said = opened.text;
  for (let replies = 0; ; replies++) {
    const turn = await session.turn(said);
    record = { ...turn.record, text: turn.reply };
    if (replies >= input.maxTurns) {
      return {
        record,
        stopReason: "max_steps",
        error: `the conversation reached its limit of ${input.maxTurns} user replies`,
      };
    }
    const reply = await conversation.reply(turn.reply, input.signal);
    if (reply.ended) {
      record = { ...record, messages: [...record.messages, { role: "user", content: reply.text }] };
      return { record, stopReason: "answered" };
    }
    said = reply.text;
  }
}
