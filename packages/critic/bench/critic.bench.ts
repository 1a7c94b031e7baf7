// Critic benchmark: the math verifier's cost per answer (the case table, symbolic vs numeric, long responses), prompt
// building, and what the critic adds around model calls: a group's advice with an instant fake model, and over the
// SIMULATED model server on loopback (HTTP, the models client, JSON validation). Run: pnpm --filter @tfgrpo/critic bench
import { performance } from "node:perf_hooks";
import { createModels, parseModelsConfig } from "@tfgrpo/models";
import { makeCodeTrajectory } from "@tfgrpo/protocol/testing";
import OpenAI from "openai";
import { createCritic } from "../src/create-critic.js";
import { extractAnswer } from "../src/math/extract-answer.js";
import { verifyMath } from "../src/math/verify-math.js";
import { summaryPrompt } from "../src/prompts/summary-prompt.js";
import { fakeCriticModels } from "../src/testing/fake-critic-models.js";
import { mathVerifierCases } from "../src/testing/math-verifier-cases.js";

interface Row {
  case: string;
  n: number;
  meanUs: string;
  p50Us: string;
  p95Us: string;
  perSecond: string;
}

function summarise(name: string, timesMs: number[]): Row {
  const sorted = [...timesMs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const mean = sorted.reduce((total, value) => total + value, 0) / sorted.length;
  return {
    case: name,
    n: sorted.length,
    meanUs: (mean * 1000).toFixed(1),
    p50Us: (at(0.5) * 1000).toFixed(1),
    p95Us: (at(0.95) * 1000).toFixed(1),
    perSecond: (1000 / mean).toFixed(0),
  };
}

function timeSync(name: string, iterations: number, work: (iteration: number) => unknown): Row {
  for (let warm = 0; warm < Math.min(100, iterations); warm++) work(warm);
  const times: number[] = [];
  for (let iteration = 0; iteration < iterations; iteration++) {
    const start = performance.now();
    work(iteration);
    times.push(performance.now() - start);
  }
  return summarise(name, times);
}

async function timeAsync(
  name: string,
  iterations: number,
  work: (iteration: number) => Promise<unknown>,
): Promise<Row> {
  for (let warm = 0; warm < 3; warm++) await work(warm);
  const times: number[] = [];
  for (let iteration = 0; iteration < iterations; iteration++) {
    const start = performance.now();
    await work(iteration);
    times.push(performance.now() - start);
  }
  return summarise(name, times);
}

const cases = mathVerifierCases;
const symbolic = cases.filter(
  (c) => /[a-z]/.test(c.gold.replace(/\\[a-z]+/g, "")) && !/text|[A-E]$/.test(c.gold),
);
const numeric = cases.filter((c) => /^-?[\d.]+$/.test(c.gold));
const longResponse = `${"We consider the cases one by one and compute each term carefully. ".repeat(300)}So the answer is $\\boxed{\\dfrac{3}{4}}$.`;
const bigTrajectory = makeCodeTrajectory({
  code: { source: "for i in range(500): print(i, i * i)", stdout: "0 0\n".repeat(2000) },
});

const rows: Row[] = [
  timeSync(`verifyMath, case table (${cases.length} pairs, cycled)`, 5000, (i) => {
    const c = cases[i % cases.length]!;
    return verifyMath(c.gold, c.pred);
  }),
  timeSync(`verifyMath, numeric golds (${numeric.length})`, 3000, (i) => {
    const c = numeric[i % numeric.length]!;
    return verifyMath(c.gold, c.pred);
  }),
  timeSync(`verifyMath, symbolic golds (${symbolic.length}, sampled)`, 3000, (i) => {
    const c = symbolic[i % symbolic.length]!;
    return verifyMath(c.gold, c.pred);
  }),
  // A fresh answer each time: nothing comes from the compiled-expression cache.
  timeSync("verifyMath, uncached expression", 3000, (i) => verifyMath(`\\frac{${i}}{7}`, `${i}/7`)),
  timeSync(`extractAnswer, ${(longResponse.length / 1024).toFixed(0)} KB response`, 2000, () =>
    extractAnswer(longResponse),
  ),
  timeSync("summaryPrompt, 8 KB tool output", 2000, () =>
    summaryPrompt({ trajectory: bigTrajectory, evaluation: "wrong", groundTruth: "8" }),
  ),
];

// The critic's own cost around model calls: an instant fake model, a group of 5 (5 summaries + 1 advantage).
const experiences = [{ id: "G0", text: "When counting integers in a closed range, include both endpoints." }];
const task = { id: "t1", domain: "math", question: "How many integers n satisfy 3 <= n <= 10?", answer: "8" };
const group = [1, 0, 1, 0, 0].map((reward, attempt) =>
  makeCodeTrajectory({ id: `tr-${attempt}`, attempt, reward, grade: reward === 1 ? "pass" : "fail" }),
);
const instant = createCritic({
  models: fakeCriticModels((call) =>
    call.kind === "complete"
      ? "Step 1: Counted with code.\nStep 2: Answered."
      : {
          operations: [{ option: "add", experience: "Count both endpoints of a closed range.", reason: "r" }],
        },
  ),
});
rows.push(
  await timeAsync("groupAdvice, G = 5, instant fake model", 500, () =>
    instant.groupAdvice({ runId: "r", groupId: "g", task, trajectories: group, experiences }),
  ),
  await timeAsync("reward, G = 5 math answers", 500, () =>
    instant.reward(
      task,
      group.map((t) => ({ trajectoryId: t.id, finalAnswer: t.finalAnswer })),
    ),
  ),
);

{
  // The sim is loaded for these rows only (as product code would with --sim): the rows above need none of it.
  const { createSimServer, createSuite, quietNoise } = await import("@tfgrpo/sim");
  const { simGroup } = await import("../test/sim-rollouts.js");
  await using sim = await createSimServer({ seed: 11, noise: quietNoise });
  const models = createModels(
    parseModelsConfig({ roles: { critic: { baseUrl: sim.url, model: "sim-critic" } } }, { env: {} }),
    {
      env: {},
    },
  );
  const critic = createCritic({ models });
  const simTask = createSuite({ domain: "math", seed: 11, size: 3, split: "train" })[2]!;
  const client = new OpenAI({ baseURL: sim.url, apiKey: "sim", maxRetries: 3 });
  const rollouts = await simGroup({
    client,
    task: simTask,
    runId: "bench",
    groupId: "g",
    size: 5,
    experiences,
    seed: 2000,
  });
  const { rewards } = await critic.reward(
    simTask,
    rollouts.map((t) => ({ trajectoryId: t.id, finalAnswer: t.finalAnswer })),
  );
  const trajectories = rollouts.map((t, i) => ({ ...t, reward: rewards[i]!.reward }));
  rows.push(
    await timeAsync("groupAdvice, G = 5, SIMULATED server over HTTP", 100, () =>
      critic.groupAdvice({ runId: "bench", groupId: "g", task: simTask, trajectories, experiences }),
    ),
  );
}

console.log("tfgrpo critic benchmark (sim rows: SIMULATED model server, not a real model)");
console.table(rows);
