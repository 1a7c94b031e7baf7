import { describe, expect, it } from "vitest";
import { readLibrary, stanceOf } from "./library-reading.js";
import { idiomById } from "./python-idioms.js";

const range = idiomById("inclusive-range")!.advice.cues;
const modulo = idiomById("floor-modulo")!.advice.cues;

describe("the critic's reading of library lines", () => {
  it("tells the direction of a line on the topic, negations included", () => {
    expect(stanceOf("For counts between two bounds, skip the bounds themselves.", range)).toBe("wrong");
    expect(stanceOf("When counting between two bounds, skip both bounds.", range)).toBe("wrong");
    expect(stanceOf("When counting over a range, do not skip the bounds.", range)).toBe("right");
    expect(stanceOf("Use range(lo, hi + 1) rather than range(lo + 1, hi).", range)).toBe("right");
    expect(stanceOf("Ranges: mind the bounds.", range)).toBe("topic");
    expect(stanceOf("Open the official page before answering.", range)).toBe("unrelated");
    expect(stanceOf("For a remainder, math.fmod keeps the sign, which is what you want.", modulo)).toBe(
      "wrong",
    );
    expect(stanceOf("Never use math.fmod for a remainder; x % m is never negative.", modulo)).toBe("right");
  });

  it("sorts library lines into misleading, already said and merely topical", () => {
    const reading = readLibrary(
      [
        { id: "G1", text: "When counting between two bounds, leave the bounds out of the count." },
        { id: "G2", text: "Count both bounds: range(lo, hi + 1)." },
        { id: "G3", text: "Think about the interval." },
        { id: "G4", text: "Prefer the newest source." },
      ],
      range,
      "When counting integers between two bounds, count both bounds with range(lo, hi + 1).",
    );
    expect(reading.misleading.map((l) => l.id)).toEqual(["G1"]);
    expect(reading.same.map((l) => l.id)).toEqual(["G2"]);
    expect(reading.topical.map((l) => l.id)).toEqual(["G3"]);
  });
});
