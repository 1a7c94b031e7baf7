import { describe, expect, it } from "vitest";
import { billedOutputTokens } from "./create-models.js";

describe("billedOutputTokens: what the provider bills as output", () => {
  it("is completion_tokens where reasoning is counted inside it (OpenAI's convention)", () => {
    expect(
      billedOutputTokens({
        prompt_tokens: 100,
        completion_tokens: 900,
        total_tokens: 1000,
        completion_tokens_details: { reasoning_tokens: 800 },
      }),
    ).toBe(900);
  });

  it("adds reasoning reported only beside the completion", () => {
    expect(
      billedOutputTokens({
        prompt_tokens: 100,
        completion_tokens: 50,
        completion_tokens_details: { reasoning_tokens: 700 },
      }),
    ).toBe(750);
  });

  it("takes total - prompt when the total is larger than prompt + completion", () => {
    expect(billedOutputTokens({ prompt_tokens: 100, completion_tokens: 50, total_tokens: 900 })).toBe(800);
  });

  it("is 0 when the provider sends no usage", () => {
    expect(billedOutputTokens({})).toBe(0);
  });
});
