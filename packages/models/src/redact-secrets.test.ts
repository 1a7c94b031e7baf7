import { expect, it } from "vitest";
import { redactSecrets, redactValue, registerSecret } from "./redact-secrets.js";

it("removes registered secrets wherever they appear", () => {
  registerSecret("custom-provider-key-777");
  expect(redactSecrets("key=custom-provider-key-777; again custom-provider-key-777")).toBe(
    "key=[REDACTED]; again [REDACTED]",
  );
});

it("removes key-shaped text it was never told about", () => {
  expect(redactSecrets("Authorization: Bearer abc.def-123456")).toBe("Authorization: Bearer [REDACTED]");
  expect(redactSecrets("Incorrect API key provided: sk-proj-ABCDEFGH12345678")).toBe(
    "Incorrect API key provided: sk-[REDACTED]",
  );
  expect(redactSecrets('{"api_key": "abcdef123456", "x-api-key": "zyxwvu987654"}')).toBe(
    '{"api_key": "[REDACTED]", "x-api-key": "[REDACTED]"}',
  );
  expect(redactSecrets("no secrets in a timeout of 500 ms")).toBe("no secrets in a timeout of 500 ms");
});

it("redacts strings inside plain values", () => {
  registerSecret("another-secret-value");
  expect(redactValue({ a: ["another-secret-value", 3], b: { c: "ok" } })).toEqual({
    a: ["[REDACTED]", 3],
    b: { c: "ok" },
  });
});
