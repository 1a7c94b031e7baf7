import type { BaseMessage } from "@langchain/core/messages";

/** A LangChain message's text: string content as is, content blocks' text parts joined. */
export function messageText(message: BaseMessage): string {
  const content = message.content as unknown;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block) =>
      typeof block === "string"
        ? block
        : block && typeof block === "object" && typeof (block as { text?: unknown }).text === "string"
          ? (block as { text: string }).text
          : "",
    )
    .join("");
}
