// Error rates of the lifecycle's moves under repeated looks, by Monte Carlo over the real `planLifecycle` with the
// default curator settings (issue 32): the default rule (one-sided sequential harm test for demotion, confidence
// sequence for promotion and archive) against the confidence sequence alone and the rule before both (a fixed-n 95%
// interval checked at every look). An entry's contrast grows by `groupsPerLook` groups of G = 5 attempts per look; the share of
// its groups on which it acts is `relevant`. Seeded: the same numbers on every machine.
// Run: pnpm --filter @tfgrpo/curator bench:lifecycle   (also part of `pnpm bench`)
import { renderMarkdownTable } from "@tfgrpo/protocol/testing";
import { resolveCuratorConfig } from "../src/curator-config.js";
import {
  fixedIntervalRule,
  type LifecycleTrialSetting,
  lifecycleTrials,
  plannedRule,
  sequenceOnlyRule,
} from "../src/testing/lifecycle-error-rates.js";

const policy = resolveCuratorConfig().lifecycle;
const base: LifecycleTrialSetting = {
  status: "active",
  effect: 0,
  relevantShare: 1,
  attempts: 5,
  groupsPerLook: 4,
  looks: 25,
  trials: 2000,
  seed: 101,
};
const settings: Array<{
  name: string;
  setting: LifecycleTrialSetting;
  error: "demoted" | "promoted" | null;
}> = [
  { name: "active, no effect (wrong demotion)", setting: base, error: "demoted" },
  { name: "active, +0.10 (wrong demotion)", setting: { ...base, effect: 0.1 }, error: "demoted" },
  { name: "active, -0.10", setting: { ...base, effect: -0.1 }, error: null },
  { name: "active, -0.15", setting: { ...base, effect: -0.15 }, error: null },
  { name: "active, -0.20", setting: { ...base, effect: -0.2 }, error: null },
  { name: "active, -0.40", setting: { ...base, effect: -0.4 }, error: null },
  {
    name: "active, -0.40 on 1/3 of groups",
    setting: { ...base, effect: -0.4, relevantShare: 1 / 3 },
    error: null,
  },
  {
    name: "candidate, -0.10 (wrong promotion)",
    setting: { ...base, status: "candidate", effect: -0.1 },
    error: "promoted",
  },
  { name: "candidate, +0.20", setting: { ...base, status: "candidate", effect: 0.2 }, error: null },
  { name: "candidate, +0.40", setting: { ...base, status: "candidate", effect: 0.4 }, error: null },
];

const percent = (value: number) => `${(100 * value).toFixed(1)}%`;
const rows: string[][] = [];
for (const { name, setting, error } of settings) {
  for (const [rule, make] of [
    ["default", plannedRule],
    ["sequence only", sequenceOnlyRule],
    ["fixed-n", fixedIntervalRule],
  ] as const) {
    const result = lifecycleTrials(setting, make(policy));
    rows.push([
      name,
      rule,
      percent(result.demoted),
      percent(result.promoted),
      percent(result.undecided),
      Number.isNaN(result.meanGroupsToDecision) ? "-" : result.meanGroupsToDecision.toFixed(1),
      error === null ? "" : percent(result[error]),
    ]);
  }
}
console.log(
  `Lifecycle moves under repeated looks: ${base.trials} trials per row, a look every ${base.groupsPerLook} groups, ${base.looks} looks (${base.groupsPerLook * base.looks} groups), G = ${base.attempts}; alpha ${policy.alpha}, demotion test against ${-policy.harmEffect} at ${policy.demoteAlpha}, confirm ${policy.confirmAlpha}, horizon ${policy.horizon}\n`,
);
console.log(
  renderMarkdownTable(
    ["true effect", "rule", "demoted", "promoted", "undecided", "mean groups to decision", "error rate"],
    rows,
  ),
);
