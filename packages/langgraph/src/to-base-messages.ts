import { type BaseMessage, type BaseMessageLike, coerceMessageLikeToMessage } from "@langchain/core/messages";

/**
 * Messages as LangChain accepts them anywhere (`BaseMessage`s, `{ role, content }` objects, `["human", "..."]`
 * pairs, plain strings) as `BaseMessage`s, converted by LangChain's own rule.
 */
export function toBaseMessages(messages: readonly BaseMessageLike[]): BaseMessage[] {
  return messages.map((message) => coerceMessageLikeToMessage(message));
}

/** The text of the first human message, or undefined when there is none with text. */
export function firstHumanText(messages: readonly BaseMessageLike[]): string | undefined {
  const human = toBaseMessages(messages).find((message) => message.getType() === "human");
  return human && human.text.trim() !== "" ? human.text : undefined;
}
