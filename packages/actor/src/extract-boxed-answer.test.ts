import { describe, expect, it } from "vitest";
import { extractBoxedAnswer } from "./extract-boxed-answer.js";

describe("extractBoxedAnswer", () => {
  it("returns the last boxed answer, trimmed", () => {
    expect(extractBoxedAnswer("First \\boxed{12}, but on reflection \\boxed{ 13 }.")).toBe("13");
  });

  it("balances nested braces and escaped braces", () => {
    expect(extractBoxedAnswer("so \\boxed{\\frac{1}{2}}")).toBe("\\frac{1}{2}");
    expect(extractBoxedAnswer("\\boxed{\\{1, 2\\}}")).toBe("\\{1, 2\\}");
  });

  it("returns null without a box or when the box never closes", () => {
    expect(extractBoxedAnswer("The answer is 42.")).toBeNull();
    expect(extractBoxedAnswer("\\boxed{42")).toBeNull();
  });

  it("accepts \\fbox and a space before the brace", () => {
    expect(extractBoxedAnswer("\\fbox {7}")).toBe("7");
  });
});
