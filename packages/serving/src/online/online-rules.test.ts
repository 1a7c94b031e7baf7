import { describe, expect, it } from "vitest";
import { neighbourhoodGroups } from "./neighbourhood-groups.js";
import { resolveOnlineConfig } from "./online-config.js";
import type { OnlineOutcome } from "./online-outcome.js";
import { createReflectionTrigger } from "./reflection-trigger.js";
import { checkRollback } from "./rollback-rule.js";

const config = resolveOnlineConfig({
  trigger: { batchSize: 10, window: 6, dropBelow: 0.5, cooldown: 3 },
  groups: { neighbours: 3, minSimilarity: 0.5, maxGroups: 2, pool: 50 },
});

describe("reflection trigger", () => {
  it("fires every B outcomes while the window stays above the threshold", () => {
    const trigger = createReflectionTrigger(config.trigger);
    const fired: number[] = [];
    for (let i = 1; i <= 25; i++) {
      const firing = trigger.observe(true);
      if (firing) {
        expect(firing.reason).toBe("batch");
        fired.push(i);
        trigger.reflected();
      }
    }
    expect(fired).toEqual([10, 20]);
  });

  it("fires at once on a success drop (full window below the threshold), then waits for the cooldown", () => {
    const trigger = createReflectionTrigger(config.trigger);
    const outcomes = [true, true, true, true, true, true, false, false, false, false, false, false, false];
    const fired: [number, string, number | null][] = [];
    outcomes.forEach((success, index) => {
      const firing = trigger.observe(success);
      if (firing) {
        fired.push([index + 1, firing.reason, firing.windowRate]);
        trigger.reflected();
      }
    });
    // Window of 6 after outcome 10 holds 2 successes of 6 (< 0.5); then 3 more outcomes of cooldown.
    expect(fired).toEqual([
      [10, "success-drop", 2 / 6],
      [13, "success-drop", 0],
    ]);
  });

  it("does not repeat a firing the caller has not acted on", () => {
    const trigger = createReflectionTrigger(config.trigger);
    const firings = Array.from({ length: 30 }, () => trigger.observe(false)).filter(Boolean);
    expect(firings).toHaveLength(1);
  });

  it("rejects a bad setting with the field named", () => {
    expect(() => resolveOnlineConfig({ trigger: { dropBelow: 2 } }, "online.yaml")).toThrow(
      /online\.yaml: trigger\.dropBelow/,
    );
  });
});

const outcome = (id: string, task: string, success: boolean): OnlineOutcome & { key: string } => ({
  key: id,
  selectionId: id,
  domain: "math",
  version: null,
  task,
  reward: success ? 1 : 0,
  success,
  summary: null,
  feedback: null,
});

describe("neighbourhood groups", () => {
  const vectors = new Map<string, number[]>([
    ["count A", [1, 0, 0]],
    ["count B", [0.95, 0.1, 0]],
    ["count C", [0.9, 0.2, 0]],
    ["web X", [0, 0, 1]],
    ["web Y", [0, 0.1, 0.95]],
  ]);

  it("centres on the newest failures, keeps only groups with both outcomes, neighbours by similarity", () => {
    const pool = [
      outcome("1", "count A", true),
      outcome("2", "web X", false),
      outcome("3", "count B", false),
      outcome("4", "web Y", false),
      outcome("5", "count C", false),
    ];
    const groups = neighbourhoodGroups(pool, vectors, config.groups);
    // Failure 5 (count C) has the success 1 nearby; failure 4 (web Y) has no success near it: no group;
    // failure 3 was already covered by the first group.
    expect(groups.map((g) => g.members.map((m) => m.key))).toEqual([["5", "3", "1"]]);
    expect(groups[0]!.similarities[0]).toBe(1);
  });
});

describe("rollback", () => {
  it("judges rollback per window, with a minimum reference, on the Welch test of served - reference", () => {
    const rule = { window: 10, looks: 3, minReference: 20, alpha: 0.05, margin: 0 };
    const reference = Array.from({ length: 30 }, (_, index) => index % 10 < 8);
    const bad = [true, true, false, false, false, false, false, false, false, false];
    // Between windows nothing is decided, however bad the outcomes.
    expect(checkRollback({ ...rule, served: bad.slice(0, 9), reference })).toMatchObject({
      rollback: false,
      judged: false,
    });
    const judged = checkRollback({ ...rule, served: bad, reference });
    expect(judged).toMatchObject({ rollback: true, judged: true, servedRate: 0.2, referenceRate: 0.8 });
    expect(judged.test!.upper).toBeLessThan(0);
    // alpha is split over the looks: the bound is that of a one-sided 0.05 / 3 test.
    expect(judged.test!.alpha).toBeCloseTo(0.05 / 3, 12);
    // Too little reference: no judgement.
    expect(checkRollback({ ...rule, served: bad, reference: reference.slice(0, 19) }).judged).toBe(false);
    // A window a little below the reference is not evidence enough.
    const close = [true, true, true, true, true, true, true, false, false, false];
    expect(checkRollback({ ...rule, served: close, reference }).rollback).toBe(false);
    // A margin asks for confidence that the loss is larger than it.
    const worse = [true, true, true, false, false, false, false, false, false, false];
    expect(checkRollback({ ...rule, served: worse, reference }).rollback).toBe(true);
    expect(checkRollback({ ...rule, served: worse, reference, margin: 0.3 }).rollback).toBe(false);
  });
});
