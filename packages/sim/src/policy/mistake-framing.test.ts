import { describe, expect, it } from "vitest";
import { getPitfall } from "../pitfalls/catalog.js";
import { rewriteMistakeFraming } from "./mistake-framing.js";
import { readLesson } from "./read-lesson.js";

const read = (pitfallId: string, text: string) => readLesson(getPitfall(pitfallId)!.reading, text).effect;

// Lessons that describe the wrong move before the fix: a capable reader takes the fix as the advice.
describe("a lesson that names the mistake before its fix", () => {
  it("rules the named mistake out and keeps the fix as the instruction", () => {
    expect(rewriteMistakeFraming("Common trap: dropping the last day. Instead count it.")).toBe(
      "Do not dropping the last day. count it.",
    );
    expect(
      rewriteMistakeFraming(
        "The typical error is truncating toward zero — so shift the result by the modulus.",
      ),
    ).toBe("Do not truncating toward zero. shift the result by the modulus.");
    expect(rewriteMistakeFraming("A frequent slip is to round early, so keep every digit.")).toBe(
      "Do not round early. keep every digit.",
    );
    // "rather than" after the mistake is no fix of its own: the sentence stays one mistake.
    expect(rewriteMistakeFraming("The classic mistake is subtracting rather than adding one.")).toBe(
      "Do not subtracting rather than adding one.",
    );
  });

  it("reads the fix, not the mistake, whatever the frame", () => {
    for (const text of [
      "The common slip is to report end minus start for a span of days — so add one when both ends count.",
      "It is tempting to leave out the last day of the span, but an inclusive count keeps both ends.",
      "A classic mistake: excluding the first day of the range; instead include both endpoints.",
      "Wrong: end - start. Right: end - start + 1 when both endpoints are included.",
    ])
      expect(read("range-endpoints", text), text).toBe("helps");
    // The same mistake stated as the advice is still read as the mistake.
    expect(
      read("range-endpoints", "For a span of days, leave out the last day and report end minus start."),
    ).toBe("hurts");
  });
});
