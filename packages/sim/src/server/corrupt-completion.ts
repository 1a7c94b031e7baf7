import type { SimToolCall } from "../actor-turn.js";
import type { Fault } from "../faults.js";
import type { SimCompletion } from "../sim-model.js";
import { breakJson, garbleJson } from "../structured-output.js";

export interface CompletionOutput {
  content: string | null;
  toolCalls: SimToolCall[];
  finishReason: "stop" | "tool_calls" | "length";
}

/** The completion's output as the fault leaves it: broken or garbled JSON, or cut in half. */
export function corruptCompletion(completion: SimCompletion, fault: Fault | null): CompletionOutput {
  let content = completion.content;
  let toolCalls: SimToolCall[] = completion.toolCalls;
  let finishReason: CompletionOutput["finishReason"] = toolCalls.length > 0 ? "tool_calls" : "stop";
  if (fault?.kind === "malformedJson") {
    if (completion.structured && content !== null) content = breakJson(content);
    else if (toolCalls.length > 0)
      toolCalls = toolCalls.map((call, i) =>
        i === 0 ? { ...call, arguments: breakJson(call.arguments) } : call,
      );
  }
  if (fault?.kind === "garbledJson") {
    if (completion.structured && content !== null) content = garbleJson(content);
    else if (toolCalls.length > 0)
      toolCalls = toolCalls.map((call) => ({ ...call, arguments: garbleJson(call.arguments) }));
  }
  if (fault?.kind === "truncated") {
    if (toolCalls.length > 0) {
      toolCalls = toolCalls.map((call) => ({
        ...call,
        arguments: call.arguments.slice(0, Math.floor(call.arguments.length / 2)),
      }));
    } else if (content !== null) content = content.slice(0, Math.floor(content.length / 2));
    finishReason = "length";
  }
  return { content, toolCalls, finishReason };
}
