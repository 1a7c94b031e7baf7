import { TfgrpoError } from "@tfgrpo/protocol";
import { makeTrajectory } from "@tfgrpo/protocol/testing";

// One trajectory builder for every package's tests (protocol's test kit); re-exported for the contract suites.
export { makeTrajectory };

import { expect } from "vitest";

/** Awaits a promise that must reject with a TfgrpoError and returns the error for closer checks. */
export async function expectTfgrpoError(promise: Promise<unknown>, code: string): Promise<TfgrpoError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught, "expected the call to fail").toBeDefined();
  expect(TfgrpoError.isInstance(caught), `expected a TfgrpoError, got ${String(caught)}`).toBe(true);
  const error = caught as TfgrpoError;
  expect(error.code, error.message).toBe(code);
  return error;
}
