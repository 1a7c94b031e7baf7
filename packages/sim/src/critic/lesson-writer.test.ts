import { describe, expect, it } from "vitest";
import { unitFrom } from "../hash.js";
import { wordCount } from "../text/experience-lines.js";
import type { Finding } from "./finding.js";
import {
  maxLessonWords,
  paraphrase,
  writeIrrelevant,
  writeLesson,
  writeMisguided,
  writeVague,
} from "./lesson-writer.js";
import { stanceOf } from "./library-reading.js";
import { pythonIdioms } from "./python-idioms.js";

const drawFor =
  (seed: number, salt = "") =>
  (label: string, ...extra: (string | number)[]) =>
    unitFrom("test", seed, salt, label, ...extra);

const findingOf = (index: number): Finding => {
  const idiom = pythonIdioms[index]!;
  return { key: idiom.id, advice: idiom.advice, evidence: "", attempts: [1], confidence: 1 };
};

describe("the critic's lesson writer", () => {
  it("keeps every lesson within the word limit, situation first", () => {
    for (let i = 0; i < pythonIdioms.length; i++)
      for (let seed = 0; seed < 30; seed++) {
        const lesson = writeLesson(findingOf(i), "Some question about numbers from 3 to 9?", drawFor(seed));
        expect(wordCount(lesson), lesson).toBeLessThanOrEqual(maxLessonWords);
        expect(lesson).toMatch(/^(When|Whenever|For|If you are|In tasks like|While|[A-Z][a-z]+ing)\b/);
      }
  });

  it("varies the wording of one lesson across seeds", () => {
    const texts = new Set(
      Array.from({ length: 40 }, (_, seed) =>
        writeLesson(findingOf(1), "How many multiples of 3 lie between 3 and 30, inclusive?", drawFor(seed)),
      ),
    );
    expect(texts.size).toBeGreaterThanOrEqual(12);
  });

  it("reads its own correct lessons as pointing the right way and its misguided ones as the wrong way", () => {
    for (let i = 0; i < pythonIdioms.length; i++)
      for (let seed = 0; seed < 10; seed++) {
        const finding = findingOf(i);
        const problem = "A question.";
        const right = writeLesson(finding, problem, drawFor(seed));
        const wrong = writeMisguided(finding, problem, drawFor(seed, "m"));
        expect(stanceOf(right, finding.advice.cues), right).toBe("right");
        expect(stanceOf(wrong, finding.advice.cues), wrong).toBe("wrong");
      }
  });

  it("writes vague, irrelevant and paraphrased lines too", () => {
    expect(
      wordCount(writeVague("What is the remainder when -7 is divided by 3?", drawFor(1))),
    ).toBeLessThanOrEqual(maxLessonWords);
    expect(writeIrrelevant("Who leads the company?", "web", drawFor(2))).toMatch(
      /search|query|results|title/,
    );
    const line = "When you count days in a span, check whether both ends are included.";
    const variants = new Set(Array.from({ length: 10 }, (_, seed) => paraphrase(line, drawFor(seed))));
    expect(variants.size).toBeGreaterThan(2);
    for (const variant of variants) expect(variant).not.toBe(line);
  });
});
