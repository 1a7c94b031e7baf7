import { describe, expect, it } from "vitest";
import { z } from "zod";
import { breakJson, fitToSchema, renderStructured } from "./structured-output.js";

describe("renderStructured", () => {
  const value = { operations: [{ option: "add", experience: "When x, do y.", reason: "r", extra: 1 }] };

  it("answers bare JSON for json_object", () => {
    expect(JSON.parse(renderStructured(value, { type: "json_object" }))).toEqual(value);
  });

  it("answers in a ```json fence after a sentence without response_format", () => {
    const text = renderStructured(value, undefined);
    expect(text).toMatch(/^Here is my answer\.\n\n```json\n/);
    expect(JSON.parse(/```json\n([\s\S]*)\n```/.exec(text)![1]!)).toEqual(value);
  });

  it("answers exactly the json_schema shape (zod's own JSON schema)", () => {
    const schema = z.object({
      operations: z.array(
        z.discriminatedUnion("option", [
          z.object({ option: z.literal("add"), experience: z.string(), reason: z.string() }),
          z.object({ option: z.literal("delete"), experience_id: z.string(), reason: z.string() }),
        ]),
      ),
      note: z.string(),
    });
    const text = renderStructured(
      {
        operations: [
          ...value.operations,
          { option: "delete", experience_id: "G2", reason: "d", experience: "x" },
        ],
      },
      { type: "json_schema", json_schema: { name: "ops", schema: z.toJSONSchema(schema), strict: true } },
    );
    const parsed = schema.strict().safeParse(JSON.parse(text));
    expect(parsed.success).toBe(true);
    expect(parsed.data?.operations[1]).toEqual({ option: "delete", experience_id: "G2", reason: "d" });
  });
});

describe("fitToSchema", () => {
  it("follows $ref, fills required fields and honours enums", () => {
    const schema = {
      $defs: { verdict: { type: "string", enum: ["correct", "incorrect"] } },
      type: "object",
      properties: {
        verdict: { $ref: "#/$defs/verdict" },
        score: { type: "number" },
        tags: { type: "array", items: { type: "string" }, maxItems: 1 },
      },
      required: ["verdict", "score", "tags"],
      additionalProperties: false,
    };
    expect(fitToSchema({ verdict: "maybe", tags: ["a", "b"], other: true }, schema)).toEqual({
      verdict: "correct",
      score: 0,
      tags: ["a"],
    });
  });
});

describe("breakJson", () => {
  it("breaks JSON so a parser fails", () => {
    expect(() => JSON.parse(breakJson('{"verdict": "correct", "reason": "x"}'))).toThrow();
  });
});
