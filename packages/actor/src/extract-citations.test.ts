import { describe, expect, it } from "vitest";
import { extractCitations } from "./extract-citations.js";

describe("extractCitations", () => {
  it("finds [G3] citations in order of first appearance, once each", () => {
    expect(extractCitations(["Applying [G3] then [G10].", "Again [G3], and [G0]."])).toEqual([
      "G3",
      "G10",
      "G0",
    ]);
  });

  it("reads grouped citations like [G3, G7]", () => {
    expect(extractCitations(["Per [G3, G7] and [G1; G2]"])).toEqual(["G3", "G7", "G1", "G2"]);
  });

  it("ignores ids the prompt did not show and text that only looks similar", () => {
    const shown = new Set(["G3", "G7"]);
    expect(extractCitations(["[G3] [G99] G7 (G7) [g7] [G7x]"], shown)).toEqual(["G3"]);
  });

  it("normalises zero-padded ids", () => {
    expect(extractCitations(["[G03]"])).toEqual(["G3"]);
  });
});
