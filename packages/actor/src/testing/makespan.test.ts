import { describe, expect, it } from "vitest";
import { makespan } from "./makespan.js";

describe("makespan", () => {
  it("takes chains in order on the earliest free slot: a long last chain sets the end", () => {
    expect(makespan([2, 2, 2, 2], 2)).toBe(4);
    // Slots end at 3 and 1; the last chain of 5 goes to the second: 6, not the 11 / 2 of a fluid schedule.
    expect(makespan([3, 1, 5], 2)).toBe(6);
    expect(makespan([4], 64)).toBe(4);
    expect(makespan([], 8)).toBe(0);
  });
});
