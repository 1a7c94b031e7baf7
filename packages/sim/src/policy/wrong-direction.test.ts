import { describe, expect, it } from "vitest";
import { getPitfall } from "../pitfalls/catalog.js";
import { type LessonBankName, loadLessonBank } from "../testing/lesson-bank.js";
import { measureWrongDirection, type WrongDirectionReport } from "./lesson-recognition.js";
import { readLesson } from "./read-lesson.js";

/**
 * Wrong-direction readings (a correct lesson read as hurting, a harmful one read as helping) over the lesson banks,
 * both domains pooled per bank. Issue 25 item 7: under 5% in both directions. Banks 1, 3 and 4 were used while the
 * polarity reading was built and must stay under 5%. Banks 2 and 5 were never tuned on; their measured levels are
 * held as ceilings below and reported (docs/sim.md): they do not all meet the 5% target yet.
 */
function pooled(bank: LessonBankName): WrongDirectionReport & { hurtRate: number; helpRate: number } {
  const [math, web] = (["math", "web"] as const).map((domain) =>
    measureWrongDirection(loadLessonBank(domain, "all", bank)),
  );
  const report: WrongDirectionReport = {
    correct: math!.correct + web!.correct,
    correctReadAsHurting: [...math!.correctReadAsHurting, ...web!.correctReadAsHurting],
    harmful: math!.harmful + web!.harmful,
    harmfulReadAsHelping: [...math!.harmfulReadAsHelping, ...web!.harmfulReadAsHelping],
  };
  const hurtRate = report.correctReadAsHurting.length / report.correct;
  const helpRate = report.harmfulReadAsHelping.length / report.harmful;
  console.log(
    `${bank}: correct read as hurting ${report.correctReadAsHurting.length}/${report.correct} ` +
      `(${(100 * hurtRate).toFixed(1)}%), harmful read as helping ${report.harmfulReadAsHelping.length}/` +
      `${report.harmful} (${(100 * helpRate).toFixed(1)}%)`,
  );
  return { ...report, hurtRate, helpRate };
}

describe("wrong-direction readings over the lesson banks", () => {
  it.each(["lesson-bank", "lesson-bank-3", "lesson-bank-4"] as const)(
    "%s (used while building the reader): under 5% in both directions",
    (bank) => {
      const report = pooled(bank);
      expect(report.hurtRate, report.correctReadAsHurting.join("\n")).toBeLessThan(0.05);
      expect(report.helpRate, report.harmfulReadAsHelping.join("\n")).toBeLessThan(0.05);
    },
  );

  // Measured after the rework: bank 2 11/208 and 6/130, bank 5 3/78 and 3/52. Ceilings hold that level.
  it.each([
    ["lesson-bank-2", 0.06, 0.05],
    ["lesson-bank-5", 0.05, 0.06],
  ] as const)("%s (never tuned on): held at the measured level", (bank, hurtCeiling, helpCeiling) => {
    const report = pooled(bank);
    expect(report.hurtRate, report.correctReadAsHurting.join("\n")).toBeLessThan(hurtCeiling);
    expect(report.helpRate, report.harmfulReadAsHelping.join("\n")).toBeLessThan(helpCeiling);
  });
});

describe("the critic's lessons the issue names", () => {
  const read = (text: string) => readLesson(getPitfall("weighted-mean")!.reading, text).effect;

  it("reads a lesson that states the wrong action as a rule as hurting", () => {
    expect(read("Take the plain average of the group means; the group sizes do not matter.")).toBe("hurts");
    expect(read("One vote per group: average the group means.")).toBe("hurts");
  });

  it("reads a double negation ('stay away from ignoring X') as attending to X", () => {
    expect(
      read(
        "Add up size times mean for each group and divide by the total size; stay away from ignoring the group sizes.",
      ),
    ).toBe("helps");
    expect(read("When combining the means of several groups, stay away from ignoring the group sizes.")).toBe(
      "helps",
    );
    expect(read("Ignore the group sizes and take the plain average of the means.")).toBe("hurts");
  });
});
