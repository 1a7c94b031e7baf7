// Error rates of the acceptance gate, by Monte Carlo over the real decision code (`decideGate` with the default curator
// settings): the chance it keeps a candidate 10 points worse than the head and the chance it rejects one 10 points
// better, at the default validation budget (30 tasks, the runner's default samples per task), with realistic
// per-task difficulty heterogeneity; and what it costs in rollouts. Seeded: the same numbers on every machine.
// Run: pnpm --filter @tfgrpo/curator bench:gate   (also part of `pnpm bench`)
import { seededRandom } from "@tfgrpo/protocol";
import {
  heterogeneousDifficulty,
  renderMarkdownTable,
  sampledScore,
  type TaskDifficulty,
  versionPairWorld,
} from "@tfgrpo/protocol/testing";
import { decideGate } from "../src/acceptance-gate.js";
import { resolveCuratorConfig } from "../src/curator-config.js";
import { defaultValidationSamples } from "../src/validation-budget.js";

const trials = 4000;
const tasks = 30;
const targets = { wronglyKept: 0.05, wronglyRejected: 0.2 };
const gate = resolveCuratorConfig().gate;

/** Share of trials in which the gate commits a candidate whose population mean is `difference` from the head's. */
function commitRate(
  difference: number,
  samples: number,
  difficulty: TaskDifficulty,
  seed: number,
  config: typeof gate = gate,
) {
  const random = seededRandom(seed);
  let commits = 0;
  for (let trial = 0; trial < trials; trial++) {
    const world = versionPairWorld({ random, tasks, difference, difficulty });
    // Independent samples per version: the conservative case (paired seeds, as the sim has, only help).
    const decision = decideGate({
      candidateScores: world.candidate.map((p) => sampledScore(random, p, samples)),
      headScores: world.head.map((p) => sampledScore(random, p, samples)),
      stage: "full",
      config,
      samplesPerTask: samples,
    });
    if (decision.decision === "commit") commits++;
  }
  return commits / trials;
}

const scenarios: { name: string; difficulty: TaskDifficulty }[] = [
  { name: "heterogeneous Beta(0.8,0.8)", difficulty: heterogeneousDifficulty },
  { name: "uniform Beta(1,1)", difficulty: { a: 1, b: 1 } },
  { name: "all tasks near 0.5 (worst case)", difficulty: { a: 50, b: 50 } },
];
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const rows: string[][] = [];
for (const [index, scenario] of scenarios.entries()) {
  for (const samples of [1, defaultValidationSamples, 3]) {
    const seed = 1000 * index + samples;
    const kept = commitRate(-0.1, samples, scenario.difficulty, seed);
    const rejected = 1 - commitRate(0.1, samples, scenario.difficulty, seed + 500);
    const tie = commitRate(0, samples, scenario.difficulty, seed + 700);
    const meets = kept <= targets.wronglyKept && rejected <= targets.wronglyRejected;
    rows.push([
      scenario.name,
      String(tasks),
      `${samples}${samples === defaultValidationSamples ? " (default)" : ""}`,
      percent(kept),
      percent(rejected),
      percent(tie),
      `${2 * tasks * samples} (${tasks * samples})`,
      meets ? "yes" : "no",
    ]);
  }
}

// The rule before issue 25 for reference: the means only (a tie commits), one sample per task.
{
  const before = { ...gate, test: { ...gate.test, kind: "none" as const } };
  const kept = commitRate(-0.1, 1, heterogeneousDifficulty, 91, before);
  const rejected = 1 - commitRate(0.1, 1, heterogeneousDifficulty, 92, before);
  rows.push([
    "heterogeneous, rule before issue 25",
    String(tasks),
    "1 (old default)",
    percent(kept),
    percent(rejected),
    percent(commitRate(0, 1, heterogeneousDifficulty, 93, before)),
    `${2 * tasks} (${tasks})`,
    kept <= targets.wronglyKept && rejected <= targets.wronglyRejected ? "yes" : "no",
  ]);
}

const header = [
  "difficulty",
  "tasks",
  "samples/task",
  "kept at -10 pts",
  "rejected at +10 pts",
  "committed at 0",
  "rollouts/decision (head cached)",
  "meets targets",
];
console.log(
  `acceptance gate (${gate.mode}, margin ${gate.margin}, test ${gate.test.kind} alpha ${gate.test.alpha} harm ${gate.test.harm}), ${trials} trials per cell, seeded`,
);
console.log(
  `targets: kept at -10 pts <= ${percent(targets.wronglyKept)}, rejected at +10 pts <= ${percent(targets.wronglyRejected)}`,
);
console.log(renderMarkdownTable(header, rows));
