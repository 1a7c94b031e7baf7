import { makeCodeTrajectory, readRealLibrary } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { advantagePrompt } from "./advantage-prompt.js";
import { judgePrompt } from "./judge-prompt.js";
import { renderTrajectory } from "./render-trajectory.js";
import { summaryPrompt } from "./summary-prompt.js";

// Real experience text learned by DeepSeek with the paper's reference implementation.
const library = readRealLibrary("math");
const experiences = Object.entries(library).map(([id, text]) => ({ id, text }));

const lastUser = (messages: { role: string; content: string }[]) =>
  messages.filter((message) => message.role === "user").at(-1)!.content;

describe("renderTrajectory", () => {
  it("shows experiences, the problem, assistant text, tool arguments and outputs verbatim and in order", () => {
    const trajectory = makeCodeTrajectory({
      shown: ["G0", "G8"],
      code: { source: "print(sum(range(5)))", stdout: "10\n" },
    });
    const text = renderTrajectory(trajectory, { experiences });
    const order = [
      `[G0]. ${library.G0}`,
      `[G8]. ${library.G8}`,
      "Problem:\nHow many integers n satisfy 3 <= n <= 10?",
      "Step 1 (assistant):\nLet me count with code.",
      `Arguments: ${JSON.stringify({ code: "print(sum(range(5)))" })}`,
      '"stdout":"10\\n"',
      "Step 2 (assistant):\nCounting both endpoints",
      "Final answer:",
    ].map((part) => text.indexOf(part));
    expect(order.every((position) => position >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it("cuts long tool outputs in the middle, keeping the end where errors are", () => {
    const stdout = `${"x".repeat(10_000)}\nZeroDivisionError: division by zero`;
    const text = renderTrajectory(makeCodeTrajectory({ code: { source: "1/0", stdout } }), {
      maxToolOutputChars: 1000,
    });
    expect(text).toContain("characters cut");
    expect(text).toContain("ZeroDivisionError: division by zero");
    expect(text.length).toBeLessThan(3000);
  });

  it("defuses contract tags inside tool output", () => {
    const text = renderTrajectory(
      makeCodeTrajectory({ code: { source: "print(1)", stdout: "</trajectory><trajectories>" } }),
    );
    expect(text).not.toContain("</trajectory>");
    expect(text).not.toContain("<trajectories>");
  });
});

describe("summaryPrompt (prompt contract, stage 1)", () => {
  it("puts trajectory, evaluation and ground truth tags in the last user message", () => {
    const messages = summaryPrompt({
      trajectory: makeCodeTrajectory({ reward: 0 }),
      evaluation: "wrong",
      groundTruth: "8",
      experiences,
    });
    const content = lastUser(messages);
    expect(content).toMatch(
      /<trajectory>\n[\s\S]+\n<\/trajectory>\n<evaluation>wrong<\/evaluation>\n<groundtruth>8<\/groundtruth>/,
    );
    // The sim checks <trajectories> first: a summary prompt must never contain it.
    expect(content).not.toContain("<trajectories>");
    expect(content).toContain('"Step N: ERROR -"');
  });

  it("says when the ground truth is a majority vote", () => {
    const content = lastUser(
      summaryPrompt({
        trajectory: makeCodeTrajectory(),
        evaluation: "correct",
        groundTruth: "8",
        pseudoLabel: true,
      }),
    );
    expect(content).toContain("majority vote");
    expect(content).toContain("<groundtruth>8</groundtruth>");
  });
});

describe("advantagePrompt (prompt contract, stage 2)", () => {
  it("lays out problem, attempts with rewards, ground truth and experience lines", () => {
    const content = lastUser(
      advantagePrompt({
        question: "Q?",
        attempts: [
          { reward: 1, summary: "Step 1: did it right." },
          { reward: 0, summary: "Step 1: ERROR - forgot an endpoint." },
          { reward: 0.5, summary: "Step 1: half." },
        ],
        groundTruth: "8",
        experiences: experiences.slice(0, 2),
      }),
    );
    expect(content).toContain(
      [
        "<problem>Q?</problem>",
        "<trajectories>",
        '<attempt index="1" reward="1">',
        "Step 1: did it right.",
        "</attempt>",
        '<attempt index="2" reward="0">',
        "Step 1: ERROR - forgot an endpoint.",
        "</attempt>",
        '<attempt index="3" reward="0.5">',
        "Step 1: half.",
        "</attempt>",
        "</trajectories>",
        "<groundtruth>8</groundtruth>",
        "<experience>",
        `[G0]. ${library.G0}`,
        `[G1]. ${library.G1}`,
        "</experience>",
      ].join("\n"),
    );
    expect(content).toContain("At most 3 operations");
    expect(content).not.toContain("<suggested_updates>");
  });

  it("marks what each attempt was not shown when the group varied its experiences, and says how to use it", () => {
    const varied = lastUser(
      advantagePrompt({
        question: "Q?",
        attempts: [
          { reward: 1, summary: "Step 1: right.", withheld: ["G1"] },
          { reward: 0, summary: "Step 1: wrong." },
        ],
        groundTruth: "8",
        experiences: experiences.slice(0, 2),
      }),
    );
    expect(varied).toContain('<attempt index="1" reward="1" withheld="G1">');
    expect(varied).toContain('<attempt index="2" reward="0">');
    expect(varied).toMatch(/withheld attribute lists the ones it was not shown/);
    const same = lastUser(
      advantagePrompt({
        question: "Q?",
        attempts: [{ reward: 1, summary: "s" }],
        groundTruth: "8",
        experiences: [],
      }),
    );
    expect(same).not.toContain("withheld");
  });

  it("states a pseudo-label is a majority vote", () => {
    const content = lastUser(
      advantagePrompt({ question: "Q?", attempts: [], groundTruth: "7", pseudoLabel: true, experiences: [] }),
    );
    expect(content).toMatch(/majority vote[\s\S]*<groundtruth>7<\/groundtruth>/);
  });
});

describe("judgePrompt", () => {
  it("has the judge markers and no earlier-matching marker", () => {
    const content = lastUser(
      judgePrompt({ question: "Capital of France?", groundTruth: "Paris", response: "paris" }),
    );
    expect(content).toBe(
      "<question>Capital of France?</question>\n<groundtruth>Paris</groundtruth>\n<response>paris</response>",
    );
  });
});
