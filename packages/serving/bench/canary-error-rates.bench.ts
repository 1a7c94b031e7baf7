// Error rates of online learning's canary and head probation, by Monte Carlo over the real decision code (the
// sequential canary test `decideCanary`, with the share it asks for, then the probation check `observeProbation`), at
// the default online settings: the chance a version 10 points worse than the head ends up kept (committed and not
// rolled back on probation) and the chance one 10 points better ends up dropped (rejected, inconclusive, or rolled
// back), with the live outcomes it costs. Live tasks fall in 4 strata of similar tasks, each of heterogeneous
// difficulty (Beta(0.8,0.8) around the stratum's rate). Seeded: the same numbers on every machine.
// Run: pnpm --filter @tfgrpo/serving bench:canary   (also part of `pnpm bench`)
import { seededRandom } from "@tfgrpo/protocol";
import {
  betaSampler,
  heterogeneousDifficulty,
  logitShiftFor,
  renderMarkdownTable,
} from "@tfgrpo/protocol/testing";
import { observeProbation, type Probation } from "../src/online/head-probation.js";
import { type OnlineConfig, resolveOnlineConfig } from "../src/online/online-config.js";
import { type ArmOutcome, decideCanary } from "../src/online/sequential-canary.js";

const trials = 2000;
const targets = { wronglyKept: 0.05, wronglyRejected: 0.2 };
const now = new Date("2026-01-01T00:00:00Z");
const deadlineAt = "2026-01-02T00:00:00Z";

type Fate = "kept" | "rejected" | "inconclusive" | "rolled back";

function runCanary(rollout: OnlineConfig["rollout"], difference: number, random: () => number) {
  const draw = betaSampler(random, heterogeneousDifficulty);
  const shift = logitShiftFor(heterogeneousDifficulty, difference);
  const strata = [-1, -0.3, 0.3, 1];
  /** One live task of stratum `s` served by the head or the candidate: its success. */
  const serve = (s: number, candidate: boolean) => {
    const p = Math.min(1 - 1e-9, Math.max(1e-9, draw()));
    const logit = Math.log(p / (1 - p)) + strata[s]! + (candidate ? shift : 0);
    return random() < 1 / (1 + Math.exp(-logit));
  };
  const canary: ArmOutcome[] = [];
  const head: ArmOutcome[] = [];
  let share = rollout.canaryShare;
  for (;;) {
    const s = Math.floor(random() * strata.length);
    const toCanary = random() < share;
    (toCanary ? canary : head).push({ stratum: `s${s}`, success: serve(s, toCanary) });
    const verdict = decideCanary({ canary, head, now, deadlineAt }, rollout);
    if (verdict.kind === "continue") {
      share = verdict.share;
      continue;
    }
    const traffic = canary.length + head.length;
    if (verdict.kind !== "commit") return { fate: verdict.kind as Fate, canary: canary.length, traffic };
    break;
  }
  // Probation: the promoted version serves everything; its windows are judged against the head's canary outcomes.
  let probation: Probation | null = {
    previous: null,
    versions: [1],
    reference: head.map((o) => o.success),
    served: [],
  };
  while (probation !== null) {
    const s = Math.floor(random() * strata.length);
    const step = observeProbation(probation, { version: 1, success: serve(s, true) }, rollout);
    if (step.kind === "rollback")
      return { fate: "rolled back" as Fate, canary: canary.length, traffic: canary.length + head.length };
    probation = step.probation;
  }
  return { fate: "kept" as Fate, canary: canary.length, traffic: canary.length + head.length };
}

function measure(rollout: OnlineConfig["rollout"], difference: number, seed: number) {
  const random = seededRandom(seed);
  const fates: Record<Fate, number> = { kept: 0, rejected: 0, inconclusive: 0, "rolled back": 0 };
  let canaryOutcomes = 0;
  let traffic = 0;
  for (let trial = 0; trial < trials; trial++) {
    const result = runCanary(rollout, difference, random);
    fates[result.fate]++;
    canaryOutcomes += result.canary;
    traffic += result.traffic;
  }
  const share = (count: number) => count / trials;
  return {
    kept: share(fates.kept),
    rejected: share(fates.rejected),
    inconclusive: share(fates.inconclusive),
    rolledBack: share(fates["rolled back"]),
    canaryOutcomes: canaryOutcomes / trials,
    traffic: traffic / trials,
  };
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const defaults = resolveOnlineConfig().rollout;
const rows: string[][] = [];
for (const [index, harm] of [0.05, defaults.harm, 0.15].entries()) {
  const rollout = { ...defaults, harm };
  const worse = measure(rollout, -0.1, 100 * index + 1);
  const better = measure(rollout, 0.1, 100 * index + 2);
  const even = measure(rollout, 0, 100 * index + 3);
  const large = measure(rollout, 0.3, 100 * index + 4);
  const wronglyRejected = 1 - better.kept;
  rows.push([
    `${harm}${harm === defaults.harm ? " (default)" : ""}`,
    percent(worse.kept),
    `${percent(wronglyRejected)} (test ${percent(better.rejected)}, inconclusive ${percent(better.inconclusive)}, rollback ${percent(better.rolledBack)})`,
    percent(even.kept),
    `${better.canaryOutcomes.toFixed(0)} / ${better.traffic.toFixed(0)}`,
    `${worse.canaryOutcomes.toFixed(0)} / ${worse.traffic.toFixed(0)}`,
    `${large.canaryOutcomes.toFixed(0)} / ${large.traffic.toFixed(0)}`,
    worse.kept <= targets.wronglyKept && wronglyRejected <= targets.wronglyRejected ? "yes" : "no",
  ]);
}

const header = [
  "harm (design effect)",
  "kept at -10 pts",
  "dropped at +10 pts",
  "kept at 0",
  "canary / traffic to decide (+10)",
  "canary / traffic (-10)",
  "canary / traffic (+30)",
  "meets targets",
];
console.log(
  `online sequential canary + probation (share <= ${defaults.canaryShare}, alpha ${defaults.alpha}, beta ${defaults.beta}, ` +
    `min ${defaults.minCanaryOutcomes} outcomes per arm, budget ${defaults.canaryOutcomes}, window ${defaults.rollbackWindow}, ` +
    `min reference ${defaults.minReference}, rollback margin ${defaults.rollbackMargin}, probation ${defaults.probationWindows} windows), ` +
    `4 strata of heterogeneous Beta(0.8,0.8) tasks, ${trials} trials per cell, seeded`,
);
console.log(
  `targets: kept at -10 pts <= ${percent(targets.wronglyKept)}, dropped at +10 pts <= ${percent(targets.wronglyRejected)}`,
);
console.log(renderMarkdownTable(header, rows));
