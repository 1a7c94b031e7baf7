import { describe, expect, it } from "vitest";
import { truncateText } from "./truncate-text.js";

describe("truncateText", () => {
  it("leaves short texts alone", () => {
    expect(truncateText("short", 10)).toEqual({ text: "short", truncated: false });
  });

  it("keeps head and tail within the limit and says how much was cut", () => {
    const text = `${"x".repeat(500)}${"y".repeat(500)}`;
    const result = truncateText(text, 200);
    expect(result.truncated).toBe(true);
    expect(result.text.length).toBeLessThanOrEqual(200);
    expect(result.text.startsWith("xxxx")).toBe(true);
    expect(result.text.endsWith("yyyy")).toBe(true);
    const omitted = Number(/\[\.\.\. (\d+) characters omitted/.exec(result.text)![1]);
    const kept = (result.text.match(/[xy]/g) ?? []).length;
    expect(kept + omitted).toBe(1000);
  });
});
