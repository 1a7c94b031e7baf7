import { describe, expect, it } from "vitest";
import { createOpenRuns, type Prompt } from "./open-runs.js";

const selection = (id: string) => async () => ({ selectionId: id, promptBlock: "", shownIds: [] });
const firstCall = (): Prompt => [
  { role: "system", content: "You solve." },
  { role: "user", content: [{ type: "text", text: "task" }] },
];
const nextStep = (before: Prompt, toolCallId: string): Prompt => [
  ...before,
  {
    role: "assistant",
    content: [{ type: "tool-call", toolCallId, toolName: "code_interpreter", input: { code: "1" } }],
  },
  {
    role: "tool",
    content: [
      {
        type: "tool-result",
        toolCallId,
        toolName: "code_interpreter",
        output: { type: "text", value: "1" },
      },
    ],
  },
];

describe("createOpenRuns", () => {
  it("keeps a call's retries and its next steps in its run, and starts a run for each first call", () => {
    const open = createOpenRuns(10);
    const a = firstCall();
    const b = firstCall();
    const runA = open.runFor(a, "task", undefined, selection("s1"));
    const runB = open.runFor(b, "task", undefined, selection("s2"));
    expect(runB.key).not.toBe(runA.key);
    // A retry passes the same prompt array again.
    expect(open.runFor(a, "task", undefined, selection("s3"))).toBe(runA);
    open.sawToolCall(runA, "call-a");
    open.sawToolCall(runB, "call-b");
    expect(open.runFor(nextStep(a, "call-a"), "task", undefined, selection("s4"))).toBe(runA);
    expect(open.runFor(nextStep(b, "call-b"), "task", undefined, selection("s5"))).toBe(runB);
    // Once closed, a run takes no more calls: the same history later is a new run.
    open.close(runA.key);
    const later = open.runFor(nextStep(firstCall(), "call-a"), "task", undefined, selection("s6"));
    expect(later.key).not.toBe(runA.key);
  });

  it("makes every call inside one scope one run, and forgets the oldest beyond its bound", () => {
    const open = createOpenRuns(2);
    const scope = {};
    const first = open.runFor(firstCall(), "task", scope, selection("s1"));
    expect(open.runFor(firstCall(), "task", scope, selection("s2"))).toBe(first);
    open.runFor(firstCall(), "task", undefined, selection("s3"));
    open.runFor(firstCall(), "task", undefined, selection("s4"));
    expect(open.get(first.key)).toBeUndefined();
  });
});
