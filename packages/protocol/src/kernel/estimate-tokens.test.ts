import { describe, expect, it } from "vitest";
import { estimateTokens } from "./estimate-tokens.js";

describe("estimateTokens", () => {
  it("counts about four Latin characters per token, rounding up", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abcd")).toBe(1);
    expect(estimateTokens("abcde")).toBe(2);
  });

  it("counts each non-ASCII character as a token", () => {
    expect(estimateTokens("经验库")).toBe(3);
    expect(estimateTokens("G3 经验")).toBe(1 + 2);
  });
});
