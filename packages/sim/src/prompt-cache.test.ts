import { describe, expect, it } from "vitest";
import { countTokens, createPromptCache } from "./prompt-cache.js";

describe("createPromptCache", () => {
  const stable = "You are a careful solver.\n# Learned Experiences\n".padEnd(640, "x");

  it("reports the longest prefix shared with an earlier prompt of the session, in whole blocks", () => {
    const cache = createPromptCache({ blockChars: 64 });
    expect(cache.lookupAndStore("s", `${stable}question one`)).toBe(0);
    expect(cache.lookupAndStore("s", `${stable}question two`)).toBe(640);
    expect(cache.lookupAndStore("s", `${stable}question one`)).toBe(640);
    expect(cache.lookupAndStore("s", `different start ${stable}`)).toBe(0);
  });

  it("keeps sessions apart", () => {
    const cache = createPromptCache({ blockChars: 64 });
    cache.lookupAndStore("a", `${stable}q`);
    expect(cache.lookupAndStore("b", `${stable}q`)).toBe(0);
  });

  it("stays bounded", () => {
    const cache = createPromptCache({ blockChars: 8, maxKeys: 100 });
    for (let i = 0; i < 50; i++) cache.lookupAndStore("s", `${i}`.padEnd(200, "y"));
    expect(cache.lookupAndStore("s", "49".padEnd(200, "y"))).toBeLessThanOrEqual(200);
  });

  it("counts about four characters per token", () => {
    expect(countTokens("")).toBe(0);
    expect(countTokens("abcd")).toBe(1);
    expect(countTokens("abcde")).toBe(2);
  });
});
