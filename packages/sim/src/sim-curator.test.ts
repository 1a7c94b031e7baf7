import { describe, expect, it } from "vitest";
import { quietNoise } from "./behaviour.js";
import { boundedSegment, rangeEndpoints, weightedMean } from "./pitfalls/math-pitfalls.js";
import { createSimCurator } from "./sim-curator.js";

const curator = createSimCurator({ seed: 1, noise: quietNoise });

function prompt(experiences: string[], suggestions: Record<string, unknown>[], words = 32): string {
  return [
    `Consolidate the suggested updates. Each experience is clear and at most ${words} words.`,
    "<experience>",
    ...experiences,
    "</experience>",
    "<suggested_updates>",
    `[${suggestions.map((s, i) => JSON.stringify({ temp_id: `P${i + 1}`, ...s })).join(",\n ")}]`,
    "</suggested_updates>",
  ].join("\n");
}

const add = (experience: string) => ({ option: "add", experience, reason: "winners did this" });

describe("simulated curator: consolidation", () => {
  it("merges paraphrased duplicates into one lesson and drops vague ones", () => {
    const { operations } = curator.consolidate(
      prompt(
        [],
        [
          add(rangeEndpoints.lessons[0]!),
          add(rangeEndpoints.lessons[2]!),
          add("Be careful with calculations."),
          add(weightedMean.lessons[0]!),
        ],
      ),
    );
    expect(operations).toHaveLength(2);
    const merge = operations.find((op) => op.option === "merge");
    expect(merge).toMatchObject({ option: "merge", experience_ids: ["P1", "P2"] });
    expect(operations).toContainEqual(
      expect.objectContaining({ option: "add", experience: weightedMean.lessons[0] }),
    );
  });

  it("merges proposals into the library line on the same concept", () => {
    const { operations } = curator.consolidate(
      prompt([`[G3]. ${rangeEndpoints.lessons[1]}`], [add(rangeEndpoints.lessons[0]!)]),
    );
    expect(operations).toEqual([expect.objectContaining({ option: "merge", experience_ids: ["G3", "P1"] })]);
  });

  it("keeps the majority direction and deletes library lines it contradicts", () => {
    const { operations } = curator.consolidate(
      prompt(
        [`[G1]. ${rangeEndpoints.opposite[0]}`, `[G2]. ${boundedSegment.lessons[0]}`],
        [add(rangeEndpoints.lessons[0]!), add(rangeEndpoints.lessons[1]!), add(rangeEndpoints.opposite[1]!)],
      ),
    );
    expect(operations).toContainEqual(expect.objectContaining({ option: "delete", experience_id: "G1" }));
    const kept = operations.find((op) => op.option === "merge" || op.option === "add");
    expect(kept && "experience" in kept && !rangeEndpoints.opposite.includes(kept.experience)).toBe(true);
    expect(operations.some((op) => "experience_id" in op && op.experience_id === "G2")).toBe(false);
  });

  it("leaves a tie alone", () => {
    expect(
      curator.consolidate(prompt([], [add(rangeEndpoints.lessons[0]!), add(rangeEndpoints.opposite[0]!)]))
        .operations,
    ).toEqual([]);
  });

  it("ignores operations on ids that are not in the library", () => {
    const { operations } = curator.consolidate(
      prompt(
        ["[G0]. Read carefully."],
        [
          { option: "modify", experience_id: "G9", experience: rangeEndpoints.lessons[0], reason: "x" },
          { option: "delete", experience_id: "G8", reason: "x" },
        ],
      ),
    );
    expect(operations).toEqual([]);
  });

  it("accepts deleting a vague library line", () => {
    const { operations } = curator.consolidate(
      prompt(["[G0]. Read carefully."], [{ option: "delete", experience_id: "G0", reason: "vague" }]),
    );
    expect(operations).toEqual([expect.objectContaining({ option: "delete", experience_id: "G0" })]);
  });

  it("writes within the word limit", () => {
    const { operations } = curator.consolidate(
      prompt([], [add(rangeEndpoints.lessons[0]!), add(rangeEndpoints.lessons[1]!)], 12),
    );
    for (const op of operations)
      if ("experience" in op) expect(op.experience.split(/\s+/).length).toBeLessThanOrEqual(12);
  });

  it("answers nothing for unreadable suggestions", () => {
    expect(
      curator.consolidate("<experience>\n</experience>\n<suggested_updates>\nnot json\n</suggested_updates>")
        .operations,
    ).toEqual([]);
  });
});

describe("simulated curator: conflict check", () => {
  const check = (a: string, b: string) =>
    curator.conflict(`<experience_a id="G1">${a}</experience_a>\n<experience_b id="G2">${b}</experience_b>`);

  it("finds a conflict when two lessons give opposite advice on the same concept", () => {
    expect(check(rangeEndpoints.lessons[0]!, rangeEndpoints.opposite[0]!).conflict).toBe(true);
  });

  it("finds none between agreeing or unrelated lessons", () => {
    expect(check(rangeEndpoints.lessons[0]!, rangeEndpoints.lessons[1]!)).toMatchObject({
      conflict: false,
      reason: expect.stringMatching(/agree/),
    });
    expect(check(rangeEndpoints.lessons[0]!, weightedMean.lessons[0]!).conflict).toBe(false);
  });
});
