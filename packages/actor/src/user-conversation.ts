import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { Task } from "@tfgrpo/protocol";
import { messageText } from "./message-text.js";
import { truncateText } from "./truncate-text.js";
import { userGreeting, userRolePrompt, userStopToken } from "./user-role-prompt.js";

export interface UserReply {
  /** What the user said, capped (it is untrusted input to the agent, the trajectory and the critic). */
  text: string;
  /** The user ended the conversation (its message contained the stop token). */
  ended: boolean;
}

/** The other side of a conversational rollout: a `user` model playing the task's scenario. */
export interface UserConversation {
  readonly greeting: string;
  /** The user's answer to the greeting. */
  open(signal: AbortSignal): Promise<UserReply>;
  /** The user's answer to one plain message of the agent. */
  reply(agentMessage: string, signal: AbortSignal): Promise<UserReply>;
}

export function createUserConversation(options: {
  model: BaseChatModel;
  scenario: string;
  maxReplyChars: number;
}): UserConversation {
  // From the user model's side the agent speaks as `user` and the user's own replies are `assistant` messages.
  const history: BaseMessage[] = [new SystemMessage(userRolePrompt(options.scenario))];
  const ask = async (agentMessage: string, signal: AbortSignal): Promise<UserReply> => {
    history.push(new HumanMessage(agentMessage));
    const response = await options.model.invoke(history, { signal });
    const raw = messageText(response as AIMessage);
    history.push(new AIMessage(raw));
    const ended = raw.includes(userStopToken);
    const text = truncateText(raw.replace(userStopToken, "").trim() || raw, options.maxReplyChars).text;
    return { text, ended };
  };
  return {
    greeting: userGreeting,
    open: (signal) => ask(userGreeting, signal),
    reply: ask,
  };
}

/** The scenario a conversational task gives the user role (`meta.userScenario`), if any. */
export function userScenarioOf(task: Task): string | undefined {
  const scenario = task.meta?.userScenario;
  return typeof scenario === "string" && scenario.trim() !== "" ? scenario : undefined;
}
