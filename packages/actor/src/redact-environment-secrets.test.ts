import { describe, expect, it } from "vitest";
import { createEnvironmentRedactor } from "./redact-environment-secrets.js";

describe("createEnvironmentRedactor", () => {
  it("removes values of secret-looking variables and key-shaped strings", () => {
    const redact = createEnvironmentRedactor({
      DEEPSEEK_API_KEY: "ds-0123456789abcdef",
      GITHUB_TOKEN: "ghp_abcdefghijklmnop",
      HOME: "/home/someone-with-a-long-path",
      SHORT_TOKEN: "abc",
    });
    const text =
      "key=ds-0123456789abcdef token ghp_abcdefghijklmnop home /home/someone-with-a-long-path abc " +
      "sk-proj-abcdefghijkl Authorization: Bearer abcdef123456";
    expect(redact(text)).toBe(
      "key=[REDACTED] token [REDACTED] home /home/someone-with-a-long-path abc " +
        "sk-[REDACTED] Authorization: Bearer [REDACTED]",
    );
  });
});
