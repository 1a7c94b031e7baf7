import { describe, expect, it } from "vitest";
import { assemblePrompt } from "./assemble-prompt.js";
import { readRealLibrary } from "./testing/index.js";

const math = readRealLibrary("math").map(([id, text]) => ({ id, text }));
const tools = [{ name: "code_interpreter", description: "Runs Python code and returns stdout." }];

describe("assemblePrompt", () => {
  it("puts role, tools, experiences, then instructions in the system prompt, and the question verbatim as user", () => {
    const question = "  How many integers n satisfy 1 <= n <= 10?\n";
    const prompt = assemblePrompt({
      rolePrompt: "You are a mathematical problem solver.",
      tools,
      experiences: math.slice(0, 3),
      mostUseful: [math[1]!],
      question,
    });
    expect(prompt.user).toBe(question);
    const system = prompt.system;
    const order = [
      "You are a mathematical problem solver.",
      "# Tools",
      "- code_interpreter: Runs Python code",
      "# Learned Experiences",
      `[G0]. ${math[0]!.text}`,
      `[G1]. ${math[1]!.text}`,
      `[G2]. ${math[2]!.text}`,
      "# Most Useful Experiences",
      "cite its id in square brackets, like [G3]",
      "\\boxed{answer}",
    ].map((marker) => system.indexOf(marker));
    expect(order.every((position) => position >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // The repeated entry appears twice: in the block and at its end.
    expect(system.split(`[G1]. ${math[1]!.text}`).length - 1).toBe(2);
    expect(system).not.toContain(question.trim());
  });

  it("leaves out the experience block and the citation instruction when nothing is shown", () => {
    const prompt = assemblePrompt({ rolePrompt: "Role.", tools: [], experiences: [], question: "Q?" });
    expect(prompt.system).not.toContain("# Learned Experiences");
    expect(prompt.system).not.toContain("[G3]");
    expect(prompt.system).toContain("No tools are available");
    expect(prompt.system).toContain("\\boxed{answer}");
  });

  it("keeps each experience on one line", () => {
    const prompt = assemblePrompt({
      rolePrompt: "Role.",
      tools,
      experiences: [{ id: "G4", text: "When a list\nspans lines,\n\n keep one line." }],
      question: "Q?",
    });
    expect(prompt.system).toContain("[G4]. When a list spans lines, keep one line.");
  });
});
