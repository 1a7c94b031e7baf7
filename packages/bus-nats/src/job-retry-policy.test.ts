import { TfgrpoError } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { isRetryableJobError, retryDelayMs } from "./job-retry-policy.js";

describe("job retry policy", () => {
  it("retries the Bus's transient failures and errors marked retryable, nothing else", () => {
    expect(isRetryableJobError(new TfgrpoError("bus_timeout", "critic did not answer"))).toBe(true);
    expect(isRetryableJobError(new TfgrpoError("bus_closed", "connection closed"))).toBe(true);
    expect(isRetryableJobError(new TfgrpoError("model_error", "429", { details: { retryable: true } }))).toBe(
      true,
    );
    expect(isRetryableJobError(new TfgrpoError("bus_timeout", "x", { details: { retryable: false } }))).toBe(
      false,
    );
    expect(isRetryableJobError(new TfgrpoError("model_error", "malformed JSON after 3 repairs"))).toBe(false);
    expect(isRetryableJobError(new TfgrpoError("invalid_input", "task.question: required"))).toBe(false);
    expect(isRetryableJobError(new Error("ECONNRESET"))).toBe(false);
  });

  it("backs off exponentially up to 30 s", () => {
    expect([1, 2, 3, 4, 10].map(retryDelayMs)).toEqual([1000, 2000, 4000, 8000, 30_000]);
  });
});
