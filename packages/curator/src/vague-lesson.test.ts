import { describe, expect, it } from "vitest";
import { readRealLibrary } from "./testing/index.js";
import { isVagueLesson } from "./vague-lesson.js";

describe("isVagueLesson", () => {
  it("flags short advice without a condition", () => {
    expect(isVagueLesson("Be careful with calculations.", 4)).toBe(true);
    expect(isVagueLesson("Be careful when searching.", 4)).toBe(true);
    expect(isVagueLesson("Double-check your work before answering.", 4)).toBe(false);
  });

  it("keeps short lessons that state when they apply, and everything when off", () => {
    expect(isVagueLesson("When rounding, round once.", 4)).toBe(false);
    expect(isVagueLesson("Be careful.", 0)).toBe(false);
  });

  it("finds nothing vague in the real libraries", () => {
    const texts = [...readRealLibrary("math"), ...readRealLibrary("web")].map((entry) => entry.text);
    expect(texts.filter((text) => isVagueLesson(text, 4))).toEqual([]);
  });
});
