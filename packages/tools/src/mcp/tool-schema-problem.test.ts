import { describe, expect, it } from "vitest";
import { capText } from "./cap-text.js";
import { mcpResultText } from "./mcp-result-text.js";
import { toolSchemaProblem } from "./tool-schema-problem.js";

describe("toolSchemaProblem", () => {
  const object = { type: "object", properties: { id: { type: "string" } } };
  it("accepts what providers accept", () => {
    expect(toolSchemaProblem("get_order-2", "Looks up an order.", object)).toBeNull();
    expect(toolSchemaProblem("ping", "", { type: "object" })).toBeNull();
  });
  it("names what a provider would refuse", () => {
    expect(toolSchemaProblem("get order", "", object)).toMatch(/name must be/);
    expect(toolSchemaProblem("x".repeat(65), "", object)).toMatch(/name must be/);
    expect(toolSchemaProblem("a", "d".repeat(1025), object)).toMatch(/1025 characters/);
    expect(toolSchemaProblem("a", "", { type: "array" })).toMatch(/must be "object", not "array"/);
    expect(toolSchemaProblem("a", "", { type: "object", oneOf: [] })).toMatch(/top-level oneOf/);
    expect(toolSchemaProblem("a", "", { type: "object", properties: [] })).toMatch(
      /properties must be an object/,
    );
    expect(toolSchemaProblem("a", "", null)).toMatch(/JSON Schema object/);
  });
});

describe("what the model reads of a tool result", () => {
  it("joins text parts, inlines text resources, names other parts, falls back on structured content", () => {
    expect(
      mcpResultText({
        content: [
          { type: "text", text: "a" },
          { type: "resource", resource: { uri: "x://1", text: "b" } },
          { type: "image", mimeType: "image/png", data: "..." },
        ],
      }),
    ).toBe("a\nb\n[image: image/png]");
    expect(mcpResultText({ content: [], structuredContent: { n: 1 } })).toBe('{"n":1}');
  });
  it("keeps head and tail of a long result with a mark", () => {
    const text = capText(`${"h".repeat(100)}${"t".repeat(100)}`, 50);
    expect(text.startsWith("h".repeat(35))).toBe(true);
    expect(text.endsWith("t".repeat(15))).toBe(true);
    expect(text).toContain("[... 150 characters truncated ...]");
  });
});
