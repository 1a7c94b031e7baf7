import { describe, expect, it } from "vitest";
import { createImportTracker, importedModules } from "./import-tracker.js";

describe("importedModules", () => {
  it("names the top-level modules of every import form", () => {
    const code = [
      "import numpy as np, sympy",
      "from sympy.abc import x, y",
      "  from fractions import Fraction  # indented, inside a function",
      "import os.path",
      "x = 'not an import'",
      "print(1); import math",
    ].join("\n");
    expect([...importedModules(code)].sort()).toEqual(["fractions", "numpy", "os", "sympy"]);
  });
});

describe("createImportTracker", () => {
  const sessions = (tracker: ReturnType<typeof createImportTracker>, list: string[][]) => {
    for (const modules of list) tracker.record(new Set(modules));
  };

  it("pre-imports nothing before it has seen sessions, then what a quarter of them used, most used first", () => {
    const tracker = createImportTracker();
    expect(tracker.current()).toEqual([]);
    sessions(tracker, [["sympy"]]);
    // One session: a quarter of the minimum of four.
    expect(tracker.current()).toEqual(["sympy"]);
    sessions(tracker, [["fractions", "math"], ["fractions"], ["fractions"], [], [], [], []]);
    // 8 sessions: fractions 3, sympy 1, math 1; the bar is 2.
    expect(tracker.current()).toEqual(["fractions"]);
  });

  it("forgets sessions beyond its window, so a domain that stops using a module stops paying for it", () => {
    const tracker = createImportTracker({ window: 8 });
    sessions(
      tracker,
      Array.from({ length: 8 }, () => ["sympy", "numpy"]),
    );
    expect(tracker.current()).toEqual(["numpy", "sympy"]);
    sessions(
      tracker,
      Array.from({ length: 8 }, () => ["math"]),
    );
    expect(tracker.current()).toEqual(["math"]);
  });

  it("never pre-imports a module outside its candidates, however often cells import it", () => {
    const tracker = createImportTracker({ candidates: ["math"] });
    sessions(
      tracker,
      Array.from({ length: 8 }, () => ["os", "subprocess", "antigravity", "math"]),
    );
    expect(tracker.current()).toEqual(["math"]);
  });
});
