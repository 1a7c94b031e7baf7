import { describe, expect, it } from "vitest";
import { getPitfall } from "../pitfalls/catalog.js";
import { type LessonBankName, loadLessonBank } from "../testing/lesson-bank.js";
import { measureWrongDirection, type WrongDirectionReport } from "./lesson-recognition.js";
import { readLesson } from "./read-lesson.js";

/**
 * Wrong-direction readings (a correct lesson read as hurting, a harmful one read as helping) over the lesson banks,
 * both domains pooled per bank. Issue 25 item 7: under 5% in both directions on banks not tuned on. Banks 1, 3 and 4
 * were used while the polarity reading was built; banks 2 and 5 were held out until the misreadings they showed were
 * fixed in general forms (docs/sim.md), so all five are tuned on now and must stay under 5%. Bank 6 was written
 * before that fix and never tuned on: its measured level is held as a ceiling below (it is under the 5% target).
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
  it.each(["lesson-bank", "lesson-bank-2", "lesson-bank-3", "lesson-bank-4", "lesson-bank-5"] as const)(
    "%s (tuned on): under 5% in both directions",
    (bank) => {
      const report = pooled(bank);
      expect(report.hurtRate, report.correctReadAsHurting.join("\n")).toBeLessThan(0.05);
      expect(report.helpRate, report.harmfulReadAsHelping.join("\n")).toBeLessThan(0.05);
    },
  );

  // Held out: measured once before and once after the fix (4/104 and 1/78, then 3/104 and 1/78). The ceilings hold
  // the measured level; the target for a bank not tuned on is under 5% in both directions.
  it("lesson-bank-6 (never tuned on): held at the measured level, under the 5% target", () => {
    const report = pooled("lesson-bank-6");
    expect(report.hurtRate, report.correctReadAsHurting.join("\n")).toBeLessThan(0.035);
    expect(report.helpRate, report.harmfulReadAsHelping.join("\n")).toBeLessThan(0.02);
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
