import { describe, expect, it } from "vitest";
import { quietNoise, type SimNoise } from "./behaviour.js";
import { boundedSegment, rangeEndpoints, weightedMean } from "./pitfalls/math-pitfalls.js";
import { createSimCritic } from "./sim-critic.js";
import { createWorld } from "./world.js";

const world = createWorld(1);
const critic = (noise: SimNoise = quietNoise, seed = 1) => createSimCritic({ seed, world, noise });

// The shape packages/critic renders (Problem, assistant steps, tool calls with Arguments and Output).
function rendered(
  approach: string,
  printed: string,
  answer: string,
  shown = "Experiences shown to the agent: none",
): string {
  return [
    shown,
    "",
    "Problem:",
    "How many multiples of 7 lie between 14 and 91, inclusive?",
    "",
    "Step 1 (assistant):",
    `I'll solve this with the code interpreter.\n${approach}\nI will count the multiples of 7 from 14 to 91.`,
    "Tool call code_interpreter:",
    'Arguments: {"code":"count = sum(1 for n in range(14 + 1, 91) if n % 7 == 0)\\nprint(count)\\n"}',
    "Output:",
    JSON.stringify({ stdout: `${printed}\n`, stderr: "", exitCode: 0, killed: false }),
    "",
    "Step 2 (assistant):",
    `The code printed ${printed}.\nFinal answer: \\boxed{${answer}}`,
    "",
    `Final answer: ${answer}`,
  ].join("\n");
}

const summaryPrompt = (trajectory: string, evaluation: string, truth = "12") =>
  `Please summarize the trajectory step-by-step:\n<trajectory>\n${trajectory}\n</trajectory>\n<evaluation>${evaluation}</evaluation>\n<groundtruth>${truth}</groundtruth>\nOnly return the trajectory summary of each step.`;

describe("simulated critic: stage 1 summary", () => {
  it("marks the step that fell into the pitfall as an ERROR naming the concept", () => {
    const summary = critic().summarize(
      summaryPrompt(rendered(rangeEndpoints.approach.fallen, "10", "10"), "wrong"),
    );
    const lines = summary.split("\n");
    expect(lines.every((line, i) => line.startsWith(`Step ${i + 1}: `))).toBe(true);
    expect(summary).toContain(`ERROR - ${rangeEndpoints.error}`);
    expect(summary).toContain("it printed 10");
    expect(summary).toContain("the ground truth is 12");
  });

  it("credits the right approach and the experience it applied", () => {
    const summary = critic().summarize(
      summaryPrompt(
        rendered(
          `${rangeEndpoints.approach.avoided} [G3]`,
          "12",
          "12",
          `Experiences shown to the agent:\n[G3]. ${rangeEndpoints.lessons[0]}`,
        ),
        "correct",
      ),
    );
    expect(summary).not.toContain("ERROR");
    expect(summary).toContain(`Chose the right approach: ${rangeEndpoints.success} (applying [G3])`);
    expect(summary).toContain("with 1 experience in the prompt");
  });

  it("still flags a wrong answer whose cause it cannot see", () => {
    const summary = critic().summarize(
      summaryPrompt("Step 1 (assistant):\nThe answer is \\boxed{7}.", "wrong"),
    );
    expect(summary).toMatch(/ERROR - gave the final answer 7, but the ground truth is 12/);
  });
});

function advantagePrompt(
  attempts: { reward: number; summary: string }[],
  experiences: string[] = [],
): string {
  return [
    "Review these problem-solving attempts and extract generalizable experiences:",
    "<problem>How many multiples of 7 lie between 14 and 91, inclusive?</problem>",
    "<trajectories>",
    ...attempts.map((a, i) => `<attempt index="${i + 1}" reward="${a.reward}">\n${a.summary}\n</attempt>`),
    "</trajectories>",
    "<groundtruth>12</groundtruth>",
    "<experience>",
    ...experiences,
    "</experience>",
  ].join("\n");
}

const good = {
  reward: 1,
  summary: `Step 1: Read the problem.\nStep 2: Chose the right approach: ${rangeEndpoints.success}.\nStep 3: Gave 12.`,
};
const bad = {
  reward: 0,
  summary: `Step 1: Read the problem.\nStep 2: ERROR - ${rangeEndpoints.error}.\nStep 3: Gave 10.`,
};

describe("simulated critic: stage 2 group advantage", () => {
  it("adds a lesson for the pitfall that separates winners from losers", () => {
    const { operations } = critic().advantage(advantagePrompt([good, bad, bad, good]));
    expect(operations).toHaveLength(1);
    expect(operations[0]).toMatchObject({ option: "add" });
    expect(rangeEndpoints.lessons).toContain(operations[0]!.experience);
    expect(operations[0]!.experience!.split(/\s+/).length).toBeLessThanOrEqual(32);
  });

  it("proposes nothing when every attempt got the same reward", () => {
    expect(critic().advantage(advantagePrompt([bad, bad])).operations).toEqual([]);
  });

  it("reflects on a single attempt (G = 1): a failure's visible error becomes a lesson, a success teaches nothing", () => {
    const { operations } = critic().advantage(advantagePrompt([bad]));
    expect(operations).toHaveLength(1);
    expect(operations[0]).toMatchObject({ option: "add", reason: expect.stringContaining("only attempt") });
    expect(rangeEndpoints.lessons).toContain(operations[0]!.experience);
    expect(critic().advantage(advantagePrompt([good])).operations).toEqual([]);
    const unexplained = {
      reward: 0,
      summary: "Step 1: ERROR - gave the final answer 7, but the ground truth is 12.",
    };
    expect(critic().advantage(advantagePrompt([unexplained])).operations).toEqual([]);
  });

  it("deletes or rewrites a library line that points the wrong way, and rewrites a vague one", () => {
    for (let seed = 0; seed < 6; seed++) {
      const { operations } = critic(quietNoise, seed).advantage(
        advantagePrompt(
          [good, bad],
          [`[G4]. ${rangeEndpoints.opposite[0]}`, `[G5]. ${boundedSegment.lessons[0]}`],
        ),
      );
      expect(
        operations.some(
          (op) => op.experience_id === "G4" && (op.option === "delete" || op.option === "modify"),
        ),
      ).toBe(true);
      expect(operations.every((op) => op.experience_id !== "G5")).toBe(true);
    }
    const { operations } = critic().advantage(
      advantagePrompt([good, bad], [`[G2]. ${rangeEndpoints.vague[0]}`]),
    );
    expect(operations).toEqual([expect.objectContaining({ option: "modify", experience_id: "G2" })]);
  });

  it("never proposes more than three operations", () => {
    const many = {
      reward: 0,
      summary: [rangeEndpoints, boundedSegment, weightedMean]
        .map((p, i) => `Step ${i + 1}: ERROR - ${p.error}.`)
        .join("\n"),
    };
    const noisy = { ...quietNoise, critic: { vague: 1, duplicate: 1, contradictory: 1, wrongId: 1 } };
    expect(critic(noisy).advantage(advantagePrompt([good, many])).operations.length).toBeLessThanOrEqual(3);
  });

  it("adds vague, duplicate, contradictory and wrong-id noise at the configured rates", () => {
    const counts = { vague: 0, contradictory: 0, wrongId: 0 };
    const noisy = { ...quietNoise, critic: { vague: 0.3, duplicate: 0, contradictory: 0.3, wrongId: 0.3 } };
    for (let seed = 0; seed < 200; seed++) {
      const { operations } = critic(noisy, seed).advantage(
        advantagePrompt([good, bad], ["[G0]. Read carefully."]),
      );
      if (
        operations.some(
          (op) =>
            op.experience === "Be careful with calculations." ||
            op.reason === "The attempts differed in care.",
        )
      )
        counts.vague++;
      if (operations.some((op) => op.experience && rangeEndpoints.opposite.includes(op.experience)))
        counts.contradictory++;
      if (operations.some((op) => op.experience_id !== undefined && op.experience_id !== "G0"))
        counts.wrongId++;
    }
    for (const count of Object.values(counts)) {
      expect(count).toBeGreaterThan(35);
      expect(count).toBeLessThan(85);
    }
  });
});
