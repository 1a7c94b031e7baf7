import type { SimToolCall } from "./actor-turn.js";
import { type ChatRequest, lastUserText, messageText, toolNames } from "./chat-request.js";
import { renderStructured } from "./structured-output.js";

/** The marker `tfgrpo models check` puts around its tiny probes, so the simulated model knows the call. */
export const capabilityCheckMarker = "<capability_check>";

/**
 * The simulated model's answer to a `models check` probe, as any capable chat model would give it: follow the plain
 * instruction (reply "ok"), call the offered `add` tool for 2 + 3 and then state the tool's result, or answer 2 + 3
 * as the JSON asked for (in the response format requested).
 */
export function answerCapabilityCheck(request: ChatRequest): {
  content: string | null;
  toolCalls: SimToolCall[];
  structured: boolean;
} {
  const last = request.messages.at(-1);
  if (last?.role === "tool") {
    return { content: `The sum is ${messageText(last).trim()}.`, toolCalls: [], structured: false };
  }
  const prompt = lastUserText(request);
  const numbers = /(\d+)\s*\+\s*(\d+)/.exec(prompt);
  if (numbers && toolNames(request).has("add")) {
    return {
      content: null,
      toolCalls: [
        {
          id: `call_check_${request.messages.length}`,
          name: "add",
          arguments: JSON.stringify({ a: Number(numbers[1]), b: Number(numbers[2]) }),
        },
      ],
      structured: false,
    };
  }
  if (numbers) {
    const sum = Number(numbers[1]) + Number(numbers[2]);
    return { content: renderStructured({ sum }, request.response_format), toolCalls: [], structured: true };
  }
  return { content: "ok", toolCalls: [], structured: false };
}
