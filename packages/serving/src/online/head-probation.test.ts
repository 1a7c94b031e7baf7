import { describe, expect, it } from "vitest";
import { observeProbation, type Probation } from "./head-probation.js";

// Probation rule by rule, with numbers: window 10, 3 windows, 20 reference outcomes at least, alpha 0.05, margin 0.
const rollout = { rollbackWindow: 10, probationWindows: 3, minReference: 20, alpha: 0.05, rollbackMargin: 0 };
const reference = Array.from({ length: 30 }, (_, index) => index % 10 < 8); // the predecessor: 80%
const on = (served: boolean[], extra: Partial<Probation> = {}): Probation => ({
  previous: 1,
  versions: [2, 3],
  reference,
  served,
  ...extra,
});
const pattern = (successes: number, length = 10) => Array.from({ length }, (_, index) => index < successes);

describe("head probation", () => {
  it("ignores outcomes of versions it does not watch, and watches the lifecycle versions written on the head", () => {
    expect(observeProbation(on([]), { version: 1, success: false }, rollout)).toMatchObject({
      kind: "ignored",
    });
    expect(observeProbation(on([]), { version: null, success: false }, rollout)).toMatchObject({
      kind: "ignored",
    });
    expect(observeProbation(null, { version: 2, success: false }, rollout)).toEqual({
      kind: "ignored",
      probation: null,
    });
    expect(observeProbation(on([]), { version: 3, success: true }, rollout)).toMatchObject({
      kind: "watching",
      probation: { served: [true] },
    });
  });

  it("judges only when a window completes: 9 failures are not judged, the 10th (2 of 10 vs 8 of 10) rolls back", () => {
    const nine = observeProbation(on(pattern(2, 9)), { version: 2, success: false }, rollout);
    expect(nine).toMatchObject({
      kind: "rollback",
      check: { servedRate: 0.2, referenceRate: 0.8, judged: true },
    });
    const eight = observeProbation(on(pattern(2, 8)), { version: 2, success: false }, rollout);
    expect(eight).toMatchObject({ kind: "watching", check: { judged: false } });
  });

  it("splits alpha over the probation windows (0.05 / 3) and keeps a version a little worse (7 of 10 vs 8 of 10)", () => {
    const close = observeProbation(on(pattern(7, 9)), { version: 2, success: false }, rollout);
    expect(close).toMatchObject({ kind: "watching", check: { judged: true, rollback: false } });
    expect(close.kind !== "ignored" && close.check.test!.alpha).toBeCloseTo(0.05 / 3, 12);
  });

  it("asks for a loss larger than the margin: 3 of 10 rolls back at margin 0, not at margin 0.3", () => {
    const served = pattern(3, 9);
    expect(observeProbation(on(served), { version: 2, success: false }, rollout).kind).toBe("rollback");
    expect(
      observeProbation(on(served), { version: 2, success: false }, { ...rollout, rollbackMargin: 0.3 }).kind,
    ).toBe("watching");
  });

  it("does not judge before the predecessor has 20 outcomes", () => {
    const short = on(pattern(0, 9), { reference: reference.slice(0, 19) });
    expect(observeProbation(short, { version: 2, success: false }, rollout)).toMatchObject({
      kind: "watching",
      check: { judged: false },
    });
  });

  it("ends after 3 windows (30 outcomes) without a rollback", () => {
    const good = on(Array.from({ length: 29 }, () => true));
    expect(observeProbation(good, { version: 2, success: true }, rollout)).toMatchObject({
      kind: "ended",
      probation: null,
    });
  });
});
