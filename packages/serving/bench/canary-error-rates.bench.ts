// Error rates of online learning's canary gate and rollback, by Monte Carlo over the real decision code (the rollback
// rule `checkRollback`, the task pairing `pairByTask`, the curator's `decideGate` with the canary's gate settings), in
// the order the online learner applies them, at the default online settings: the chance a version 10 points worse than
// the head ends up kept (promoted and not rolled back during probation) and the chance one 10 points better ends up
// dropped (stopped early, rejected by the gate, or rolled back), with the live outcomes it costs. Every live task is
// a fresh task of heterogeneous difficulty; pairing by task has no embeddings here (no similar-task correlation: the
// conservative case). Seeded: the same numbers on every machine.
// Run: pnpm --filter @tfgrpo/serving bench:canary   (also part of `pnpm bench`)
import { decideGate } from "@tfgrpo/curator";
import { seededRandom } from "@tfgrpo/protocol";
import {
  betaSampler,
  heterogeneousDifficulty,
  logitShiftFor,
  renderMarkdownTable,
} from "@tfgrpo/protocol/testing";
import { canaryGateConfig, canaryLooks } from "../src/online/canary-gate-config.js";
import { type OnlineConfig, resolveOnlineConfig } from "../src/online/online-config.js";
import type { OnlineOutcome } from "../src/online/online-outcome.js";
import { pairByTask } from "../src/online/pair-by-task.js";
import { checkRollback } from "../src/online/rollback-rule.js";

const trials = 2000;
const targets = { wronglyKept: 0.05, wronglyRejected: 0.2 };

type Fate = "kept" | "stopped early" | "gate rejected" | "rolled back";

function runCanary(rollout: OnlineConfig["rollout"], difference: number, random: () => number) {
  const draw = betaSampler(random, heterogeneousDifficulty);
  const shift = logitShiftFor(heterogeneousDifficulty, difference);
  /** One live task served by the head or the candidate: its success. */
  const serve = (candidate: boolean) => {
    const p = Math.min(1 - 1e-9, Math.max(1e-9, draw()));
    const chance = candidate ? 1 / (1 + Math.exp(-(Math.log(p / (1 - p)) + shift))) : p;
    return random() < chance;
  };
  const outcome = (index: number, success: boolean): OnlineOutcome =>
    ({ task: `task-${index}`, reward: success ? 1 : 0, success }) as OnlineOutcome;
  const canary: boolean[] = [];
  const head: boolean[] = [];
  let traffic = 0;
  const gate = canaryGateConfig(rollout);
  for (;;) {
    traffic++;
    if (random() < rollout.canaryShare) canary.push(serve(true));
    else head.push(serve(false));
    const early = checkRollback({
      served: canary,
      reference: head,
      window: rollout.rollbackWindow,
      looks: canaryLooks(rollout),
      minReference: rollout.minReference,
      alpha: rollout.alpha,
      margin: rollout.rollbackMargin,
    });
    if (early.rollback) return { fate: "stopped early" as Fate, canary: canary.length, traffic };
    const due =
      canary.length >= rollout.canaryOutcomes &&
      (head.length >= rollout.minReference || canary.length >= 3 * rollout.canaryOutcomes);
    if (due) break;
  }
  const pairing = pairByTask(
    canary.map((success, index) => outcome(index, success)),
    head.map((success, index) => outcome(canary.length + index, success)),
    new Map(),
  );
  const decision = decideGate({
    candidateScores: pairing.candidateScores,
    headScores: pairing.headScores,
    stage: "full",
    config: gate,
    samplesPerTask: 1,
  });
  if (decision.decision !== "commit")
    return { fate: "gate rejected" as Fate, canary: canary.length, traffic };
  // Probation: the promoted version serves everything; its windows are judged against the head's canary-time outcomes.
  const served: boolean[] = [];
  while (served.length < rollout.rollbackWindow * rollout.probationWindows) {
    served.push(serve(true));
    const check = checkRollback({
      served,
      reference: head,
      window: rollout.rollbackWindow,
      looks: rollout.probationWindows,
      minReference: rollout.minReference,
      alpha: rollout.alpha,
      margin: rollout.rollbackMargin,
    });
    if (check.rollback) return { fate: "rolled back" as Fate, canary: canary.length, traffic };
  }
  return { fate: "kept" as Fate, canary: canary.length, traffic };
}

function measure(rollout: OnlineConfig["rollout"], difference: number, seed: number) {
  const random = seededRandom(seed);
  const fates: Record<Fate, number> = { kept: 0, "stopped early": 0, "gate rejected": 0, "rolled back": 0 };
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
    early: share(fates["stopped early"]),
    gateRejected: share(fates["gate rejected"]),
    rolledBack: share(fates["rolled back"]),
    canaryOutcomes: canaryOutcomes / trials,
    traffic: traffic / trials,
  };
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const defaults = resolveOnlineConfig().rollout;
const budgets = [20, 40, defaults.canaryOutcomes, 120].filter(
  (value, index, all) => all.indexOf(value) === index,
);
const rows: string[][] = [];
for (const [index, canaryOutcomes] of budgets.entries()) {
  const rollout = { ...defaults, canaryOutcomes };
  const worse = measure(rollout, -0.1, 100 * index + 1);
  const better = measure(rollout, 0.1, 100 * index + 2);
  const even = measure(rollout, 0, 100 * index + 3);
  const wronglyRejected = 1 - better.kept;
  rows.push([
    `${canaryOutcomes}${canaryOutcomes === defaults.canaryOutcomes ? " (default)" : ""}`,
    percent(worse.kept),
    `${percent(wronglyRejected)} (early ${percent(better.early)}, gate ${percent(better.gateRejected)}, rollback ${percent(better.rolledBack)})`,
    percent(even.kept),
    `${better.canaryOutcomes.toFixed(0)} / ${better.traffic.toFixed(0)}`,
    `${worse.canaryOutcomes.toFixed(0)} / ${worse.traffic.toFixed(0)}`,
    worse.kept <= targets.wronglyKept && wronglyRejected <= targets.wronglyRejected ? "yes" : "no",
  ]);
}

const header = [
  "canary outcomes",
  "kept at -10 pts",
  "dropped at +10 pts",
  "kept at 0",
  "canary / traffic to decide (+10)",
  "canary / traffic (-10)",
  "meets targets",
];
console.log(
  `online canary + rollback (share ${defaults.canaryShare}, tolerance ${defaults.tolerance}, alpha ${defaults.alpha}, harm ${defaults.harm}, ` +
    `window ${defaults.rollbackWindow}, min reference ${defaults.minReference}, rollback margin ${defaults.rollbackMargin}, ` +
    `probation ${defaults.probationWindows} windows), heterogeneous Beta(0.8,0.8) tasks, ${trials} trials per cell, seeded`,
);
console.log(
  `targets: kept at -10 pts <= ${percent(targets.wronglyKept)}, dropped at +10 pts <= ${percent(targets.wronglyRejected)}`,
);
console.log(renderMarkdownTable(header, rows));
