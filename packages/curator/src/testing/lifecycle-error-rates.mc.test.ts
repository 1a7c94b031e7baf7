import { describe, expect, it } from "vitest";
import { resolveCuratorConfig } from "../curator-config.js";
import {
  fixedIntervalRule,
  type LifecycleTrialSetting,
  lifecycleTrials,
  plannedRule,
  sequenceOnlyRule,
} from "./lifecycle-error-rates.js";

/*
 * The lifecycle's error rates under repeated looks, by Monte Carlo over the real planLifecycle (small and seeded; the
 * longer run is bench/lifecycle-error-rates.bench.ts). An entry is looked at after every 4 groups, 15 looks (60
 * groups): the run's every step.
 */
const policy = resolveCuratorConfig().lifecycle;
const base: LifecycleTrialSetting = {
  status: "active",
  effect: 0,
  relevantShare: 1,
  attempts: 5,
  groupsPerLook: 4,
  looks: 15,
  trials: 400,
  seed: 7,
};

describe("lifecycle error rates under repeated looks (Monte Carlo, seeded)", () => {
  it("demotes an entry without effect at most at the demotion level, where a fixed interval at every look loses its level", () => {
    const sequential = lifecycleTrials(base, plannedRule(policy));
    const fixed = lifecycleTrials(base, fixedIntervalRule(policy));
    expect(sequential.demoted).toBeLessThanOrEqual(policy.demoteAlpha);
    // A 95% interval checked at every look: nominally 5%, in fact more than three times that.
    expect(fixed.demoted).toBeGreaterThan(3 * 0.05);
  });

  it("demotes a harm of -0.20 faster with the one-sided test than with the two-sided sequence alone", () => {
    const harm = { ...base, effect: -0.2 };
    const oneSided = lifecycleTrials(harm, plannedRule(policy));
    const twoSided = lifecycleTrials(harm, sequenceOnlyRule(policy));
    expect(oneSided.demoted).toBeGreaterThan(twoSided.demoted);
    expect(oneSided.meanGroupsToDecision).toBeLessThan(twoSided.meanGroupsToDecision);
  });

  it("rarely promotes a candidate at the harm margin", () => {
    const atMargin = lifecycleTrials(
      { ...base, status: "candidate", effect: -policy.promoteMargin - 0.05 },
      plannedRule(policy),
    );
    expect(atMargin.promoted).toBeLessThanOrEqual(0.05);
  });

  it("decides a large harm quickly and a helpful candidate surely", () => {
    const harmful = lifecycleTrials({ ...base, effect: -0.4 }, plannedRule(policy));
    expect(harmful.demoted).toBeGreaterThan(0.9);
    expect(harmful.meanGroupsToDecision).toBeLessThan(24);
    const helpful = lifecycleTrials({ ...base, status: "candidate", effect: 0.3 }, plannedRule(policy));
    expect(helpful.promoted).toBeGreaterThan(0.9);
  });
});
