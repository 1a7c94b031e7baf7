import type OpenAI from "openai";

type MessageParam = OpenAI.Chat.Completions.ChatCompletionMessageParam;

function text(content: MessageParam["content"]): string {
  if (typeof content === "string") return content;
  if (!content) return "";
  return content.map((part) => ("text" in part ? part.text : "")).join("");
}

/**
 * A plain rendering of a conversation for the critic's summary prompt, with what the prompt contract requires:
 * assistant text, tool calls with their arguments and outputs, verbatim and in order. (The critic package has its
 * own renderer; this one serves the sim's tests.)
 */
export function renderTrajectoryForCritic(messages: readonly MessageParam[], maxOutputChars = 3000): string {
  const out: string[] = [];
  for (const message of messages) {
    if (message.role === "assistant") {
      const content = text(message.content);
      if (content) out.push(`[assistant]\n${content}`);
      for (const call of message.tool_calls ?? []) {
        if (call.type === "function")
          out.push(`[tool call] ${call.function.name} ${call.function.arguments}`);
      }
    } else if (message.role === "tool") {
      out.push(`[tool result]\n${text(message.content).slice(0, maxOutputChars)}`);
    } else {
      out.push(`[${message.role}]\n${text(message.content)}`);
    }
  }
  return out.join("\n");
}
