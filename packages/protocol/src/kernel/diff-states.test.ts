import { describe, expect, it } from "vitest";
import { diffStates } from "./diff-states.js";

describe("diffStates", () => {
  it("lists replaced, added and removed values by JSON Pointer", () => {
    const before = { tickets: [{ id: "T1", status: "open" }], "a/b": 1, gone: true };
    const after = { tickets: [{ id: "T1", status: "closed" }, { id: "T2" }], "a/b": 2 };
    expect(diffStates(before, after)).toEqual([
      { path: "/a~1b", op: "replace", before: 1, after: 2 },
      { path: "/gone", op: "remove", before: true },
      { path: "/tickets/0/status", op: "replace", before: "open", after: "closed" },
      { path: "/tickets/1", op: "add", after: { id: "T2" } },
    ]);
  });

  it("is empty for equal states and whole for a change of type", () => {
    expect(diffStates({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toEqual([]);
    expect(diffStates([1], { x: 1 })).toEqual([{ path: "", op: "replace", before: [1], after: { x: 1 } }]);
    expect(diffStates([1, 2, 3], [1])).toEqual([
      { path: "/2", op: "remove", before: 3 },
      { path: "/1", op: "remove", before: 2 },
    ]);
  });
});
