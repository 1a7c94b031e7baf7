import type { GateDecision } from "@tfgrpo/protocol";
import { expect, it } from "vitest";
import { rejectedAsStale } from "./head-moved.js";

const decision = (extra: Partial<GateDecision>): GateDecision => ({
  decision: "reject",
  candidateScore: 0.8,
  headScore: 0.5,
  margin: 0.02,
  mode: "better-by-margin",
  tasks: 10,
  stage: "full",
  reason: "candidate better by 0.3",
  ...extra,
});

it("a stale rejection is read from the decision's typed rule, never from its reason", () => {
  expect(rejectedAsStale(decision({ details: { rule: "stale-parent", head: 4 } }))).toBe(true);
  // The old wording alone no longer counts, and rewording the reason cannot break resume.
  expect(rejectedAsStale(decision({ reason: "v5's parent is no longer the head: rejected" }))).toBe(false);
  expect(rejectedAsStale(decision({ reason: "reworded", details: { rule: "stale-parent" } }))).toBe(true);
  // A commit is never stale, whatever its details say.
  expect(rejectedAsStale(decision({ decision: "commit", details: { rule: "stale-parent" } }))).toBe(false);
});
