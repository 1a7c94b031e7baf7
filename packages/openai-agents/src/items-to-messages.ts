import type { Message } from "@tfgrpo/protocol";

/**
 * An item of an OpenAI Agents SDK run's history (`AgentInputItem`), as far as tfgrpo reads it: messages, function
 * calls and their results. Duck-typed, so any SDK version (and the team's own copy of it) is read alike.
 */
export interface AgentItem {
  type?: string;
  role?: string;
  content?: unknown;
  name?: string;
  callId?: string;
  arguments?: string;
  output?: unknown;
}

/** The text of a message's content: a string, or its text parts (`input_text`, `output_text`, `text`). */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map(contentText).join("");
  if (content !== null && typeof content === "object") {
    const part = content as { text?: unknown; refusal?: unknown };
    if (typeof part.text === "string") return part.text;
    if (typeof part.refusal === "string") return part.refusal;
  }
  return "";
}

/** A function result's output as text (the SDK keeps `{ type: "text", text }`, a string, or content parts). */
function outputText(output: unknown): string {
  const text = contentText(output);
  if (text !== "" || output === undefined || output === null) return text;
  return JSON.stringify(output);
}

/**
 * A run's history (`result.history`) as tfgrpo's messages: user, system and assistant messages by their text, each
 * function call on the assistant message it follows (or one of its own), each result a `tool` message with its call
 * id. Items tfgrpo does not read (reasoning, hosted tools, handoff markers) are left out.
 */
export function itemsToMessages(items: readonly AgentItem[]): Message[] {
  const messages: Message[] = [];
  for (const item of items) {
    const type = item.type ?? "message";
    if (type === "message") {
      const role = item.role === "developer" ? "system" : item.role;
      if (role === "user" || role === "system" || role === "assistant")
        messages.push({ role, content: contentText(item.content) });
    } else if (type === "function_call") {
      const call = { id: item.callId ?? "", name: item.name ?? "tool", arguments: item.arguments ?? "{}" };
      const last = messages.at(-1);
      if (last?.role === "assistant") last.toolCalls = [...(last.toolCalls ?? []), call];
      else messages.push({ role: "assistant", content: "", toolCalls: [call] });
    } else if (type === "function_call_result") {
      messages.push({
        role: "tool",
        content: outputText(item.output),
        ...(item.callId ? { toolCallId: item.callId } : {}),
        ...(item.name ? { name: item.name } : {}),
      });
    }
  }
  return messages;
}

/** The task of a run's input: the text of its first user message (a string input is the task itself). */
export function taskOfItems(input: string | readonly AgentItem[]): string | undefined {
  if (typeof input === "string") return input.trim() === "" ? undefined : input;
  const user = input.find((item) => (item.type ?? "message") === "message" && item.role === "user");
  const text = user ? contentText(user.content) : "";
  return text.trim() === "" ? undefined : text;
}
