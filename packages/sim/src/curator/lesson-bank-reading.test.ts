import { describe, expect, it } from "vitest";
import { loadLessonBank } from "../testing/lesson-bank.js";
import { checkConflict } from "./conflict-check.js";
import { isVague } from "./vagueness.js";

/**
 * How the curator reads lessons written by someone else (test-data/lesson-bank): the rates a text-only reader gets,
 * printed, and bounds that keep it honest. It is a weak reader of direction (it knows no task), so the bounds on
 * conflicts are modest: it must flag contradictory pairs more often than agreeing ones, and never unrelated ones.
 */
const rate = (flags: readonly boolean[]) => flags.filter(Boolean).length / Math.max(1, flags.length);
const conflict = (a: string, b: string) =>
  checkConflict(`<experience_a id="G1">${a}</experience_a>\n<experience_b id="G2">${b}</experience_b>`)
    .conflict;

describe.each(["math", "web"] as const)("the curator on the %s lesson bank", (domain) => {
  const bank = loadLessonBank(domain, "holdout");
  const pitfalls = Object.values(bank.pitfalls);

  it("drops vague lessons and keystroke stubs, keeps concrete ones", () => {
    const vague = rate(pitfalls.flatMap((p) => [...p.vague, ...p.stubs].map(isVague)));
    const concrete = rate(pitfalls.flatMap((p) => [...p.correct, ...p.harmful].map(isVague)));
    const unrelated = rate(bank.unrelated.map(isVague));
    console.log(
      `${domain}: vague/stubs dropped ${vague.toFixed(2)}, correct/harmful dropped ${concrete.toFixed(2)}`,
    );
    expect(vague).toBeGreaterThanOrEqual(0.8);
    expect(concrete).toBeLessThanOrEqual(0.03);
    expect(unrelated).toBeLessThanOrEqual(0.03);
  });

  it("flags contradictory pairs more often than agreeing ones, and unrelated pairs almost never", () => {
    const contradictory = rate(
      pitfalls.flatMap((p) => p.correct.flatMap((c) => p.harmful.map((h) => conflict(c, h)))),
    );
    const agreeing = rate(
      pitfalls.flatMap((p) => p.correct.flatMap((c, i) => p.correct.slice(i + 1).map((d) => conflict(c, d)))),
    );
    const otherTopic = rate(
      pitfalls.flatMap((p, i) =>
        pitfalls
          .filter((_, j) => j !== i)
          .flatMap((q) =>
            p.correct.slice(0, 4).flatMap((c) => q.harmful.slice(0, 4).map((h) => conflict(c, h))),
          ),
      ),
    );
    const unrelated = rate(
      pitfalls.flatMap((p) =>
        p.correct.slice(0, 6).flatMap((c) => bank.unrelated.map((u) => conflict(c, u))),
      ),
    );
    console.log(
      `${domain}: conflict flagged for correct/harmful ${contradictory.toFixed(2)}, correct/correct ` +
        `${agreeing.toFixed(2)}, other topic ${otherTopic.toFixed(3)}, unrelated ${unrelated.toFixed(3)}`,
    );
    expect(contradictory).toBeGreaterThan(agreeing);
    expect(contradictory).toBeGreaterThan(0.05);
    expect(otherTopic).toBeLessThanOrEqual(0.03);
    expect(unrelated).toBeLessThanOrEqual(0.01);
  });
});
