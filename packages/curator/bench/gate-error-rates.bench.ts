// Error rates of the acceptance gate, by Monte Carlo over the real decision code (`decideGate` with the default curator
// settings, round by round for the sequential gate): the chance it keeps a candidate 10 points worse than the head and
// the chance it rejects one 10 points better, and the validation rollouts a decision costs, for the sequential gate
// (the default) against the fixed-sample paired t test at 2 samples per task (the default before issue 32) and the
// paper's rule. Per-task difficulty heterogeneity as learning runs show it. Seeded: the same numbers on every machine.
// Run: pnpm --filter @tfgrpo/curator bench:gate   (also part of `pnpm bench`)
import { seededRandom } from "@tfgrpo/protocol";
import {
  heterogeneousDifficulty,
  renderMarkdownTable,
  type TaskDifficulty,
  versionPairWorld,
} from "@tfgrpo/protocol/testing";
import { decideGate, type GateConfig } from "../src/acceptance-gate.js";
import { resolveCuratorConfig } from "../src/curator-config.js";
import { type GateRule, gateConfigFor } from "../src/gate-rule.js";
import type { ValidationRound } from "../src/sequential-gate.js";
import { defaultValidationSamples, sequentialValidationRounds } from "../src/validation-budget.js";

const trials = Number(process.env.GATE_BENCH_TRIALS ?? 4000);
const targets = { wronglyKept: 0.05, wronglyRejected: 0.2 };
const defaults = resolveCuratorConfig().gate;

interface Cell {
  commitRate: number;
  /** Mean validation rollouts per decision, candidate and head both counted (the head's are cached across steps). */
  rollouts: number;
}

/**
 * One decision per trial on a fresh validation set: the sequential rule samples rounds of one paired sample per task
 * until `decideGate` answers with a final decision; the fixed rules take `samples` per task and decide once.
 * Paired seeds (as the sim's): one uniform draw per task and sample decides both versions' success.
 */
function cell(
  rule: GateRule,
  options: { tasks: number; difference: number; difficulty: TaskDifficulty; seed: number; paired?: boolean },
): Cell {
  const config: GateConfig = gateConfigFor(defaults, rule);
  const random = seededRandom(options.seed);
  const { tasks } = options;
  let commits = 0;
  let samplesTaken = 0;
  for (let trial = 0; trial < trials; trial++) {
    const world = versionPairWorld({
      random,
      tasks,
      difference: options.difference,
      difficulty: options.difficulty,
    });
    const draw = (): ValidationRound => {
      const candidate: number[] = [];
      const head: number[] = [];
      for (let task = 0; task < tasks; task++) {
        const u = random();
        candidate.push(u < world.candidate[task]! ? 1 : 0);
        head.push((options.paired ? u : random()) < world.head[task]! ? 1 : 0);
      }
      return { candidate, head };
    };
    if (rule !== "sequential") {
      const rounds = Array.from({ length: defaultValidationSamples }, draw);
      const mean = (side: "candidate" | "head") =>
        Array.from(
          { length: tasks },
          (_, task) => rounds.reduce((sum, r) => sum + r[side][task]!, 0) / rounds.length,
        );
      const decision = decideGate({
        candidateScores: mean("candidate"),
        headScores: mean("head"),
        stage: "full",
        config,
        samplesPerTask: defaultValidationSamples,
      });
      if (decision.decision === "commit") commits++;
      samplesTaken += defaultValidationSamples;
      continue;
    }
    const maxRounds = sequentialValidationRounds(tasks);
    const rounds: ValidationRound[] = [];
    for (;;) {
      rounds.push(draw());
      const decision = decideGate({
        candidateScores: rounds.at(-1)!.candidate,
        headScores: rounds.at(-1)!.head,
        stage: "full",
        config,
        rounds,
        maxRounds,
      });
      if (decision.details?.final === false) continue;
      if (decision.decision === "commit") commits++;
      samplesTaken += rounds.length;
      break;
    }
  }
  return { commitRate: commits / trials, rollouts: (2 * tasks * samplesTaken) / trials };
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const scenarios: { name: string; difficulty: TaskDifficulty; paired?: boolean; tasks: number }[] = [
  { name: "heterogeneous Beta(0.8,0.8)", difficulty: heterogeneousDifficulty, tasks: 30 },
  { name: "heterogeneous, paired seeds", difficulty: heterogeneousDifficulty, tasks: 30, paired: true },
  { name: "uniform Beta(1,1)", difficulty: { a: 1, b: 1 }, tasks: 30 },
  { name: "every task near 0.5 (worst case)", difficulty: { a: 50, b: 50 }, tasks: 30 },
  { name: "heterogeneous, 10 tasks", difficulty: heterogeneousDifficulty, tasks: 10 },
  { name: "heterogeneous, 4 tasks", difficulty: heterogeneousDifficulty, tasks: 4 },
];
const effects = [-0.3, -0.1, 0, 0.1, 0.3];
const rows: string[][] = [];
const costs: string[][] = [];
for (const [index, scenario] of scenarios.entries()) {
  for (const rule of ["sequential", "paired-t", "paper"] as const) {
    const results = effects.map((difference, at) =>
      cell(rule, { ...scenario, difference, seed: 1000 * index + 100 * at + rule.length }),
    );
    const [, loss, tie, gain] = results as [Cell, Cell, Cell, Cell, Cell];
    const kept = loss.commitRate;
    const rejected = 1 - gain.commitRate;
    const samples = rule === "sequential" ? `up to ${sequentialValidationRounds(scenario.tasks)}` : "2";
    rows.push([
      scenario.name,
      rule === "sequential" ? "sequential (default)" : rule,
      String(scenario.tasks),
      samples,
      percent(kept),
      percent(rejected),
      percent(tie.commitRate),
      kept <= targets.wronglyKept && rejected <= targets.wronglyRejected ? "yes" : "no",
    ]);
    const mean = results.reduce((sum, result) => sum + result.rollouts, 0) / results.length;
    costs.push([
      scenario.name,
      rule,
      ...results.map((result) => result.rollouts.toFixed(0)),
      mean.toFixed(0),
    ]);
  }
}

console.log(
  `acceptance gate (${defaults.mode}, margin ${defaults.margin}; sequential alpha ${defaults.test.alpha} harm ${defaults.test.harm} beta ${defaults.test.beta} gain ${defaults.test.gain}), ${trials} trials per cell, seeded`,
);
console.log(
  `targets: kept at -10 pts <= ${percent(targets.wronglyKept)}, rejected at +10 pts <= ${percent(targets.wronglyRejected)}\n`,
);
console.log(
  renderMarkdownTable(
    [
      "difficulty",
      "rule",
      "tasks",
      "samples/task",
      "kept at -10 pts",
      "rejected at +10 pts",
      "committed at 0",
      "meets targets",
    ],
    rows,
  ),
);
console.log(
  "\nmean validation rollouts per decision (candidate + head; the head's are cached across steps)\n",
);
console.log(
  renderMarkdownTable(
    [
      "difficulty",
      "rule",
      ...effects.map((e) => `at ${e >= 0 ? "+" : ""}${Math.round(e * 100)} pts`),
      "mean",
    ],
    costs,
  ),
);
