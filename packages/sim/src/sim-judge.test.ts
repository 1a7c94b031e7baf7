import { describe, expect, it } from "vitest";
import { judgeAnswer, normalizeAnswer } from "./sim-judge.js";

const prompt = (truth: string, response: string) =>
  `<question>Q?</question>\n<groundtruth>${truth}</groundtruth>\n<response>${response}</response>`;

describe("judgeAnswer", () => {
  it.each([
    ["1350", "The answer is \\boxed{1350}", "correct"],
    ["1350", "\\boxed{1,350}", "correct"],
    ["161/2", "\\boxed{\\frac{161}{2}}", "correct"],
    ["80.5", "\\boxed{161/2}", "correct"],
    ["Mara Quell", "\\boxed{mara quell}", "correct"],
    ["14", "either 12 or 14", "partial"],
    ["14", "\\boxed{12}", "incorrect"],
    ["14", "", "incorrect"],
  ])("truth %s, response %s -> %s", (truth, response, verdict) => {
    expect(judgeAnswer(prompt(truth, response)).verdict).toBe(verdict);
  });

  it("normalises answers", () => {
    expect(normalizeAnswer("Final: \\boxed{ 4,837 }.")).toBe("4837");
    expect(normalizeAnswer("$\\dfrac{3}{4}$")).toBe("3/4");
  });
});
