import { describe, expect, it } from "vitest";
import { repairJson } from "./repair-json.js";

describe("repairJson", () => {
  it.each([
    ["plain JSON", '{"a": 1}', { a: 1 }, []],
    ["a json fence", '```json\n{"a": [1, 2]}\n```', { a: [1, 2] }, ["fence"]],
    ["a bare fence with prose", 'Sure!\n```\n{"a": "b"}\n```\nDone.', { a: "b" }, ["fence"]],
    [
      "prose around JSON",
      'My answer: {"verdict": "correct"} -- hope that helps',
      { verdict: "correct" },
      ["prose"],
    ],
    ["braces in the prose before the JSON", 'Using {x} notation: {"x": 2}', { x: 2 }, ["prose"]],
    ["trailing commas", '{"a": [1, 2,], "b": {"c": 3,},}', { a: [1, 2], b: { c: 3 } }, ["trailing-commas"]],
    ["commas inside strings kept", '{"a": "x,}", "b": 1,}', { a: "x,}", b: 1 }, ["trailing-commas"]],
    ["a top-level array", 'Result:\n[{"id": "G1"}, {"id": "G2"}]', [{ id: "G1" }, { id: "G2" }], ["prose"]],
  ])("handles %s", (_name, text, value, repairs) => {
    expect(repairJson(text)).toEqual({ ok: true, value, repairs });
  });

  it.each([
    ["an open string", '{"reason": "the answer is', { reason: "the answer is" }],
    [
      "an open array and object",
      '{"operations": [{"option": "add", "experience": "x"}, {"option": "del',
      {
        operations: [{ option: "add", experience: "x" }, { option: "del" }],
      },
    ],
    ["a key without its value", '{"a": 1, "b":', { a: 1, b: null }],
    ["a key cut in the middle", '{"a": 1, "bee', { a: 1 }],
    ["a number cut after its point", '{"a": [1, 2.', { a: [1] }],
    ["a dangling escape", '{"a": "line\\', { a: "line" }],
    ["an unclosed fence", '```json\n{"a": {"b": [true, fal', { a: { b: [true] } }],
  ])("closes output cut off inside %s", (_name, text, value) => {
    const result = repairJson(text);
    expect(result).toMatchObject({ ok: true, value });
    expect(result.ok && result.repairs).toContain("truncation");
  });

  it("drops half-written elements until the caller accepts the value", () => {
    const text = '{"operations": [{"option": "keep", "id": "G0"}, {"option": "keep", "id": "G1", "rea';
    const accepted = (value: unknown) => (value as { operations: unknown[] }).operations.length === 1;
    expect(repairJson(text, { accept: accepted })).toMatchObject({
      ok: true,
      value: { operations: [{ option: "keep", id: "G0" }] },
    });
    // Nothing acceptable: the most complete well-formed value comes back for the caller's validation to explain.
    expect(repairJson(text, { accept: () => false })).toMatchObject({
      ok: true,
      value: {
        operations: [
          { option: "keep", id: "G0" },
          { option: "keep", id: "G1" },
        ],
      },
      repairs: ["truncation"],
    });
  });

  it("quotes bare keys, as models that write JavaScript objects do, without touching strings", () => {
    const broken = '{operations: [{"option": "add", experience: "When a: b, use c", reason: "x"}]';
    const repaired = repairJson(broken, {
      accept: (value) => typeof value === "object" && value !== null && "operations" in value,
    });
    expect(repaired).toEqual({
      ok: true,
      value: { operations: [{ option: "add", experience: "When a: b, use c", reason: "x" }] },
      repairs: ["bare-keys", "truncation"],
    });
    expect(repairJson('{"a": "{b: 1}"}')).toEqual({ ok: true, value: { a: "{b: 1}" }, repairs: [] });
  });

  it("reports text with no JSON in it", () => {
    expect(repairJson("")).toEqual({ ok: false, error: "the answer is empty" });
    const result = repairJson("The verdict is correct.");
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/^no JSON value could be recovered \(invalid JSON: /);
  });
});
