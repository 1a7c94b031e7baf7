import { describe, expect, it } from "vitest";
import { writeDirectExperiences } from "./sim-direct-experiences.js";

function prompt(domain: string, count: number, problems: string[], words = 32): string {
  return [
    `Write exactly ${count} experiences. Each experience: at most ${words} words.`,
    `<domain>${domain}</domain>`,
    `<lesson_count>${count}</lesson_count>`,
    "<problems>",
    ...problems.map((p) => `- ${p}`),
    "</problems>",
  ].join("\n");
}

// Questions written for these tests: the writer sees their text and nothing else.
const questions = [
  "How many integers from 40 to 95, inclusive, are multiples of 5?",
  "A bag has 4 red and 6 blue marbles. Two are drawn without replacement. What is the probability both are red?",
  "Solve x^2 - 5x + 6 = 0 and report the number of distinct real roots.",
  "A coat costs $80.00; its price is increased by 10% and then decreased by 10%. Give the price rounded to the nearest cent.",
];

describe("simulated direct experiences: lessons from the questions' text alone", () => {
  it("writes the number asked for, distinct, within the word limit, deterministically", () => {
    const request = prompt("math", 12, questions, 24);
    const out = writeDirectExperiences(request, { seed: 3 });
    expect(out.experiences).toHaveLength(12);
    expect(new Set(out.experiences).size).toBe(12);
    for (const lesson of out.experiences) expect(lesson.split(/\s+/).length).toBeLessThanOrEqual(24);
    expect(writeDirectExperiences(request, { seed: 3 })).toEqual(out);
    expect(writeDirectExperiences(request, { seed: 4 })).not.toEqual(out);
  });

  it("mostly writes general advice, and sometimes guesses a trap from words in the questions", () => {
    const lessons = [1, 2, 3, 4, 5, 6].flatMap(
      (seed) => writeDirectExperiences(prompt("math", 8, questions), { seed }).experiences,
    );
    const guesses = lessons.filter((lesson) =>
      /inclusive|without replacement|distinct|rounded|already changed value|discriminant/i.test(lesson),
    );
    expect(guesses.length).toBeGreaterThan(0);
    expect(guesses.length).toBeLessThan(lessons.length / 2);
  });

  it("guesses only from cues the questions contain", () => {
    const plain = ["What is 17 times 23?", "Compute 144 divided among 12 people equally."];
    for (const seed of [1, 2, 3]) {
      const lessons = writeDirectExperiences(prompt("math", 10, plain), { seed, insightRate: 1 }).experiences;
      expect(lessons.some((lesson) => /inclusive|replacement|percentage/i.test(lesson))).toBe(false);
    }
    const inclusive = writeDirectExperiences(prompt("math", 3, [questions[0]!]), { seed: 1, insightRate: 1 });
    expect(inclusive.experiences.some((lesson) => /both of its ends|first and last day/i.test(lesson))).toBe(
      true,
    );
  });

  it("writes web advice for web questions, even without a domain label", () => {
    const web = [
      "How many people does Norrland Freight employ?",
      "What is the weight in grams of the Kesto kettle?",
    ];
    const out = writeDirectExperiences(prompt("", 5, web), { seed: 2 });
    expect(out.experiences).toHaveLength(5);
    expect(out.experiences.some((lesson) => /page|source|search|site/i.test(lesson))).toBe(true);
  });

  it("answers an empty request with no lessons", () => {
    expect(writeDirectExperiences(prompt("math", 0, questions), { seed: 1 }).experiences).toEqual([]);
  });
});
