import { describe, expect, it } from "vitest";
import { itemsToMessages, taskOfItems } from "./items-to-messages.js";

describe("itemsToMessages", () => {
  it("reads a run's history: messages by text, calls on their assistant message, results as tool messages", () => {
    const history = [
      { role: "user", content: "What is 2 + 2?" },
      {
        type: "message",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: "Let me compute it." }],
      },
      { type: "function_call", callId: "c1", name: "py", arguments: '{"code":"print(2+2)"}' },
      { type: "function_call_result", callId: "c1", name: "py", output: { type: "text", text: "4" } },
      { type: "reasoning", content: [] },
      { type: "function_call", callId: "c2", name: "py", arguments: "{}" },
      { type: "function_call_result", callId: "c2", name: "py", output: "done" },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "\\boxed{4}" }] },
    ];
    expect(itemsToMessages(history)).toEqual([
      { role: "user", content: "What is 2 + 2?" },
      {
        role: "assistant",
        content: "Let me compute it.",
        toolCalls: [{ id: "c1", name: "py", arguments: '{"code":"print(2+2)"}' }],
      },
      { role: "tool", content: "4", toolCallId: "c1", name: "py" },
      { role: "assistant", content: "", toolCalls: [{ id: "c2", name: "py", arguments: "{}" }] },
      { role: "tool", content: "done", toolCallId: "c2", name: "py" },
      { role: "assistant", content: "\\boxed{4}" },
    ]);
  });

  it("takes the task from a string or the first user message", () => {
    expect(taskOfItems("Close T-3.")).toBe("Close T-3.");
    expect(
      taskOfItems([
        { role: "system", content: "s" },
        { role: "user", content: [{ type: "input_text", text: "Close T-3." }] },
      ]),
    ).toBe("Close T-3.");
    expect(taskOfItems([{ role: "assistant", content: "hi" }])).toBeUndefined();
    expect(taskOfItems("  ")).toBeUndefined();
  });
});
