import { describe, expect, it } from "vitest";
import { movedByEvidence } from "./moved-by-evidence.js";

describe("movedByEvidence", () => {
  it("accepts the lifecycle's harm moves and a conflict resolved by contrasts", () => {
    expect(
      movedByEvidence(
        "hurts: contrast -0.313 [-0.712, +0.087] over 8 groups (90% confidence sequence) (sequential test ...)",
      ),
    ).toBe(true);
    expect(
      movedByEvidence("harm confirmed on probation: contrast -0.792 [-1.000, -0.381] over 8 groups"),
    ).toBe(true);
    expect(
      movedByEvidence(
        "conflicts with N2, which does better (contrast +0.300 [+0.1, +0.5] over 9 groups vs contrast -0.200 [-0.4, +0.0] over 8 groups; 95% confidence sequences apart): opposite advice",
      ),
    ).toBe(true);
  });

  it("refuses a consolidation's delete, even one quoting the entry's contrast, and moves of other kinds", () => {
    expect(
      movedByEvidence(
        "Contradicted by this batch: 1 suggestion(s), 1 one way. (its contrast -0.083 [-0.339, +0.172] over 4 groups)",
      ),
    ).toBe(false);
    expect(movedByEvidence("no longer selected: not shown for 20 versions (last v3)")).toBe(false);
    expect(movedByEvidence("hurts: mean delta -0.200 over 12")).toBe(false);
  });
});
