import { describe, expect, it } from "vitest";
import { TfgrpoError } from "../errors.js";
import { gateDecisionRule } from "./gate-decision-rule.js";
import { staleParentDetails, staleParentOf } from "./stale-parent.js";

describe("typed contracts", () => {
  it("reads a stale parent from a conflict's details, whatever its message says", () => {
    const details = staleParentDetails({ domain: "math", version: 4, parent: 2, head: 3 });
    expect(staleParentOf(new TfgrpoError("conflict", "reworded freely", { details }))).toEqual(details);
    // Another conflict, or another code with the same details, is not a stale parent.
    expect(staleParentOf(new TfgrpoError("conflict", "parent is no longer the head", { details: {} }))).toBe(
      undefined,
    );
    expect(staleParentOf(new TfgrpoError("not_found", "x", { details }))).toBe(undefined);
    // It survives the Bus: a worker's error is rebuilt from its plain form.
    expect(
      staleParentOf(TfgrpoError.fromJSON(new TfgrpoError("conflict", "x", { details }).toJSON())),
    ).toEqual(details);
  });

  it("reads a decision's rule from its details, not its reason", () => {
    expect(gateDecisionRule({ details: { rule: "stale-parent" } })).toBe("stale-parent");
    expect(gateDecisionRule({ details: { rule: "abandoned" } })).toBe("abandoned");
    expect(gateDecisionRule({ details: { rule: "something-new" } })).toBe(undefined);
    expect(gateDecisionRule({})).toBe(undefined);
  });
});
