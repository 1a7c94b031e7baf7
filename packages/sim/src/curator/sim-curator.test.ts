import { describe, expect, it } from "vitest";
import { quietNoise, type SimNoise } from "../behaviour.js";
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

const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

function expectMadeOf(text: string, sources: readonly string[]): void {
  const known = new Set(sources.flatMap(words));
  expect(text.length).toBeGreaterThan(0);
  for (const word of words(text)) expect(known.has(word), `${word} in "${text}"`).toBe(true);
}

const add = (experience: string) => ({ option: "add", experience, reason: "the winners did this" });

// Lessons written for these tests (not taken from the sim's catalog).
const keepEnds = [
  "When tallying the whole numbers of a closed interval, include both endpoints.",
  "For an inclusive count from a to b, keep both ends: there are b - a + 1 integers.",
  "Count both ends of an inclusive interval of integers.",
];
const dropEnds = [
  "When tallying the whole numbers of a range, leave out both endpoints.",
  "When tallying the whole numbers of a range, exclude both endpoints; only the values strictly inside count.",
];
const classMeans =
  "When classes have different sizes, weight each class mean by its number of students before averaging.";
const finalRounding = [
  "Do not round intermediate values in a multi-step computation; round only the final answer.",
  "Round each intermediate value of a multi-step computation to two decimals as you go.",
];
const segment = "Check that the crossing point lies on the segment itself, between its two endpoints.";

describe("simulated curator: consolidation from the texts alone", () => {
  it("merges paraphrased duplicates into one lesson and drops vague ones", () => {
    const { operations } = curator.consolidate(
      prompt(
        [],
        [add(keepEnds[0]!), add(keepEnds[1]!), add("Be careful with the arithmetic."), add(classMeans)],
      ),
    );
    expect(operations).toHaveLength(2);
    const merge = operations.find((op) => op.option === "merge");
    expect(merge).toMatchObject({ option: "merge", experience_ids: ["P1", "P2"] });
    // The merged text is made of the suggestions' own words (the most specific one, or two joined), nothing invented.
    expectMadeOf(merge && "experience" in merge ? merge.experience : "", [keepEnds[0]!, keepEnds[1]!]);
    expect(operations).toContainEqual(expect.objectContaining({ option: "add", experience: classMeans }));
  });

  it("merges a suggestion into the library line on the same topic, or keeps the line when it says it already", () => {
    const merged = curator.consolidate(prompt([`[G3]. ${keepEnds[2]}`], [add(keepEnds[1]!)])).operations;
    expect(merged).toEqual([expect.objectContaining({ option: "merge", experience_ids: ["G3", "P1"] })]);
    const kept = curator.consolidate(prompt([`[G3]. ${keepEnds[1]}`], [add(keepEnds[2]!)])).operations;
    expect(kept).toEqual([expect.objectContaining({ option: "keep", experience_id: "G3" })]);
  });

  it("keeps the majority direction and deletes the library line it contradicts, leaving other topics alone", () => {
    const { operations } = curator.consolidate(
      prompt(
        [`[G1]. ${dropEnds[0]}`, `[G2]. ${segment}`],
        [add(keepEnds[0]!), add(keepEnds[1]!), add(dropEnds[1]!)],
      ),
    );
    expect(operations).toContainEqual(expect.objectContaining({ option: "delete", experience_id: "G1" }));
    const kept = operations.filter((op) => op.option === "merge" || op.option === "add");
    expect(kept).toHaveLength(1);
    expectMadeOf("experience" in kept[0]! ? kept[0].experience : "", keepEnds);
    expect(operations.some((op) => "experience_id" in op && op.experience_id === "G2")).toBe(false);
  });

  it("reads direction from general English: negation and antonyms, whatever the topic", () => {
    const { operations } = curator.consolidate(
      prompt(
        [],
        [add(finalRounding[0]!), add(finalRounding[0]!.replace("Do not", "Never")), add(finalRounding[1]!)],
      ),
    );
    const kept = operations.filter((op) => op.option === "merge" || op.option === "add");
    expect(kept).toHaveLength(1);
    expect("experience" in kept[0]! ? kept[0].experience : "").toMatch(/^(Do not|Never) round/);
  });

  it("leaves a tie alone for the conflict check", () => {
    expect(curator.consolidate(prompt([], [add(keepEnds[0]!), add(dropEnds[0]!)])).operations).toEqual([]);
  });

  it("ignores operations on ids that are not in the library", () => {
    const { operations } = curator.consolidate(
      prompt(
        ["[G0]. Read carefully."],
        [
          { option: "modify", experience_id: "G9", experience: keepEnds[0], reason: "x" },
          { option: "delete", experience_id: "G8", reason: "x" },
        ],
      ),
    );
    expect(operations).toEqual([]);
  });

  it("accepts deleting a library line", () => {
    const { operations } = curator.consolidate(
      prompt(["[G0]. Read carefully."], [{ option: "delete", experience_id: "G0", reason: "vague" }]),
    );
    expect(operations).toEqual([expect.objectContaining({ option: "delete", experience_id: "G0" })]);
  });

  it("modifies the line a suggestion rewrites", () => {
    const { operations } = curator.consolidate(
      prompt(
        [`[G4]. ${keepEnds[2]}`],
        [{ option: "modify", experience_id: "G4", experience: keepEnds[1], reason: "more precise" }],
      ),
    );
    expect(operations).toEqual([
      expect.objectContaining({ option: "modify", experience_id: "G4", experience: keepEnds[1] }),
    ]);
  });

  it("writes within the word limit", () => {
    const long =
      "When counting the whole numbers of a closed range from a to b, include both of the endpoints a and b, " +
      "since the count is b - a + 1 and not b - a; test the formula on a tiny range such as 3 to 5.";
    const { operations } = curator.consolidate(
      prompt([], [add(long), add(keepEnds[1]!), add(classMeans)], 12),
    );
    expect(operations.length).toBeGreaterThan(0);
    for (const op of operations)
      if ("experience" in op) expect(op.experience.split(/\s+/).length).toBeLessThanOrEqual(12);
  });

  it("lets a specific lesson through without judging whether it would help", () => {
    // Wrong advice, confidently and specifically worded, alone in its batch: the curator cannot know it is wrong.
    const wrong = "A 20% price rise followed by a 20% cut brings the price back to exactly where it started.";
    expect(curator.consolidate(prompt([], [add(wrong)])).operations).toEqual([
      expect.objectContaining({ option: "add", experience: wrong }),
    ]);
  });

  it("answers nothing for unreadable suggestions", () => {
    expect(
      curator.consolidate("<experience>\n</experience>\n<suggested_updates>\nnot json\n</suggested_updates>")
        .operations,
    ).toEqual([]);
  });

  it("is deterministic, and its noise knobs act", () => {
    const request = prompt(
      ["[G2]. Use the official page."],
      [add(keepEnds[0]!), add(keepEnds[1]!), add("Think about the problem.")],
    );
    expect(curator.consolidate(request)).toEqual(curator.consolidate(request));
    const noisy = (curatorNoise: Partial<SimNoise["curator"]>) =>
      createSimCurator({
        seed: 1,
        noise: { ...quietNoise, curator: { ...quietNoise.curator, ...curatorNoise } },
      }).consolidate(request).operations;
    expect(noisy({ keepVague: 1 })).toContainEqual(
      expect.objectContaining({ option: "add", experience: "Think about the problem." }),
    );
    expect(noisy({ missedMerge: 1 }).filter((op) => op.option === "add")).toHaveLength(2);
    expect(noisy({ wrongId: 1 })).toContainEqual(
      expect.objectContaining({ option: "modify", experience_id: expect.stringMatching(/^G([5-9]|1\d)$/) }),
    );
  });
});

describe("simulated curator: conflict check", () => {
  const check = (a: string, b: string) =>
    curator.conflict(`<experience_a id="G1">${a}</experience_a>\n<experience_b id="G2">${b}</experience_b>`);

  it("finds a conflict when two lessons give opposite advice on the same topic", () => {
    expect(check(keepEnds[0]!, dropEnds[0]!).conflict).toBe(true);
    expect(check(finalRounding[0]!, finalRounding[1]!).conflict).toBe(true);
    expect(
      check(
        "When drawing two cards, draw without replacement and shrink the deck after the first card.",
        "When drawing two cards, draw with replacement and shrink the deck after the first card.",
      ).conflict,
    ).toBe(true);
    expect(
      check(
        "For a page's mass in kilograms, convert the value to grams before answering.",
        "For a page's mass in kilograms, keep the value as stated and do not convert it to grams.",
      ).conflict,
    ).toBe(true);
  });

  it("finds none between agreeing or unrelated lessons", () => {
    expect(check(keepEnds[0]!, keepEnds[1]!)).toMatchObject({
      conflict: false,
      reason: expect.stringMatching(/agree/),
    });
    expect(check(keepEnds[0]!, classMeans)).toEqual({
      conflict: false,
      reason: "They are about different things.",
    });
    expect(check(finalRounding[0]!, segment).conflict).toBe(false);
  });
});
