import { expect, it } from "vitest";
import { parseRetryAfter } from "./parse-retry-after.js";

const now = Date.parse("2025-06-01T12:00:00Z");

it.each([
  [{ "retry-after": "2" }, 2000],
  [{ "retry-after": "0.5" }, 500],
  [{ "retry-after": "Sun, 01 Jun 2025 12:00:30 GMT" }, 30_000],
  [{ "retry-after": "Sun, 01 Jun 2025 11:00:00 GMT" }, 0],
  [{ "retry-after-ms": "120", "retry-after": "5" }, 120],
  [{ "retry-after-ms": "soon", "retry-after": "5" }, 5000],
  [{ "retry-after": "later" }, undefined],
  [{}, undefined],
])("parses %j as %s ms", (headers, expected) => {
  expect(parseRetryAfter(new Headers(headers), now)).toBe(expected);
});
