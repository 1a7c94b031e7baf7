import { describe, expect, it } from "vitest";
import { quietNoise } from "./behaviour.js";
import { classifyCall, createSimModel } from "./sim-model.js";
import { createSuite } from "./suites/create-suite.js";

describe("classifyCall", () => {
  it.each([
    ["<experience>\n</experience>\n<suggested_updates>[]</suggested_updates>", "consolidation"],
    ['<experience_a id="G1">a</experience_a><experience_b id="G2">b</experience_b>', "conflict-check"],
    ["<problem>p</problem><trajectories></trajectories><experience></experience>", "group-advantage"],
    [
      "<trajectory>t</trajectory><evaluation>wrong</evaluation><groundtruth>1</groundtruth>",
      "trajectory-summary",
    ],
    ["<question>q</question><groundtruth>1</groundtruth><response>1</response>", "judge"],
    ["<domain>math</domain><lesson_count>3</lesson_count><problems>- q</problems>", "direct-experiences"],
    ["How many multiples of 3 lie between 3 and 30, inclusive?", "actor"],
  ])("reads %s as %s", (text, kind) => {
    expect(classifyCall(text)).toBe(kind);
  });
});

describe("direct experiences", () => {
  const model = createSimModel({ seed: 2, noise: quietNoise });
  const problems = createSuite({ domain: "math", seed: 2, size: 20, split: "train" }).map(
    (t) => `- ${t.question}`,
  );

  it("writes the number of lessons asked, mostly generic advice", () => {
    const out = model.complete({
      model: "sim-curator",
      messages: [
        {
          role: "user",
          content: `<domain>math</domain>\n<lesson_count>40</lesson_count>\n<problems>\n${problems.join("\n")}\n</problems>`,
        },
      ],
      response_format: { type: "json_object" },
    });
    const { experiences } = JSON.parse(out.content!) as { experiences: string[] };
    expect(experiences).toHaveLength(40);
    expect(new Set(experiences).size).toBe(40);
    const insightful = experiences.filter((e) =>
      /endpoint|discriminant|segment|round|percentage|modulo|residue|weight/i.test(e),
    );
    expect(insightful.length).toBeGreaterThan(3);
    expect(insightful.length).toBeLessThan(20);
  });
});
