import { performance } from "node:perf_hooks";
import type { Trajectory } from "@tfgrpo/protocol";
import { createStore } from "@tfgrpo/store";
import { createStudioApp } from "@tfgrpo/studio";
import { runStateKeys, runStateOf } from "../src/learn/run-state.js";
import type { StepRecord } from "../src/learn/step-record.js";
import { renderReport } from "../src/report/render-report.js";
import { collectReportData } from "../src/report/report-data.js";

// The reads of `library show`, the report and the studio on a learning run of `count` trajectories (G 5, batch 20:
// count/100 steps, each with its step record, batch outcome and 20 groups' advice in the run state), seeded straight into
// a SQLite store: each read's time in ms, the median of 3.

const groupSize = 5;
const batch = 20;
const domain = "math";
const runId = "scale-queries";

function trajectoryOf(step: number, task: number, attempt: number): Trajectory {
  const taskId = `task-${(step * batch + task) % 30_000}`;
  return {
    id: `${runId}/s${step}/${taskId}/${attempt}`,
    runId,
    taskId,
    groupId: `${runId}/s${step}/${taskId}`,
    attempt,
    epoch: 0,
    step,
    domain,
    libraryVersion: null,
    model: "sim-actor",
    messages: [
      { role: "user", content: `What is ${step} + ${task}? Show the work. `.repeat(4) },
      { role: "assistant", content: `Adding ${step} and ${task} gives ${step + task}. `.repeat(6) },
    ],
    toolCalls: [],
    finalAnswer: String(step + task),
    reward: attempt % 2,
    experiencesShown: ["G1", "G2"],
    experiencesCited: [],
    usage: {
      calls: 1,
      inputTokens: 200,
      cachedInputTokens: 0,
      outputTokens: 60,
      costUsd: 0.0001,
      latencyMs: 5,
    },
    latencyMs: 5,
    stopReason: "answered",
  };
}

function stepRecordOf(step: number): StepRecord {
  const usage = {
    calls: 100,
    inputTokens: 20_000,
    cachedInputTokens: 0,
    outputTokens: 6000,
    costUsd: 0.01,
    latencyMs: 500,
  };
  return {
    epoch: 1,
    step,
    tasks: batch,
    rollouts: batch * groupSize,
    infrastructureFailures: 0,
    validationInfrastructureFailures: 0,
    trainReward: 0.5,
    groups: batch,
    skippedGroups: 5,
    proposals: 10,
    leakageRefused: 0,
    operations: 3,
    headBefore: 1,
    candidateVersion: null,
    headAfter: 1,
    librarySize: 2,
    libraryStates: { candidate: 0, active: 2, probation: 0, archived: 0 },
    candidateScore: null,
    headScore: null,
    baselineScore: null,
    decision: "no-change",
    gateReason: "no candidate version",
    meanToolCalls: 0,
    meanTokens: 260,
    meanEntriesShown: 2,
    meanLessonTokensShown: 20,
    usageByRole: { actor: usage },
  } as StepRecord;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[1]!;
}

export async function measureQueries(file: string, count: number): Promise<[string, number][]> {
  const store = await createStore(file);
  try {
    await store.applyOperations(
      domain,
      [
        { op: "add", text: "Check the sign of a remainder.", reason: "seed" },
        { op: "add", text: "Re-read the question before answering.", reason: "seed" },
      ],
      { parent: null, state: "committed" },
    );
    await store.createRun({
      id: runId,
      kind: "learn",
      domain,
      status: "finished",
      config: { options: {}, data: {} },
      startedAt: new Date().toISOString(),
      finishedAt: new Date().toISOString(),
    });
    const runState = runStateOf(store, runId);
    const steps = Math.ceil(count / (batch * groupSize));
    const seeding = performance.now();
    for (let step = 1; step <= steps; step++) {
      const trajectories: Trajectory[] = [];
      for (let task = 0; task < batch; task++)
        for (let attempt = 0; attempt < groupSize; attempt++)
          trajectories.push(trajectoryOf(step, task, attempt));
      await store.putTrajectories(trajectories.slice(0, Math.max(0, count - (step - 1) * batch * groupSize)));
      await store.recordUsage(
        runId,
        trajectories.map((t) => ({ ...t.usage, id: t.id, role: "actor" as const, model: "sim-actor" })),
      );
      await runState.put(runStateKeys.step(step), stepRecordOf(step));
      await runState.put(runStateKeys.batchOutcomes(step), { failed: [], passed: [] });
      // The critic's answer for each group, as a learning step leaves it (the run state's largest family).
      for (let task = 0; task < batch; task++)
        await store.putRunState(
          runId,
          `${runStateKeys.advice.prefix}${trajectories[task * groupSize]!.groupId}`,
          {
            summaries: [],
            proposals: [],
            reason: "seeded",
          },
        );
    }
    const seeded = performance.now() - seeding;
    const studio = createStudioApp({ store, pollIntervalMs: 60_000 });
    const get = async (url: string) => {
      const response = await studio.fetch(new Request(`http://127.0.0.1${url}`));
      if (response.status !== 200) throw new Error(`studio ${url}: ${response.status}`);
      await response.text();
    };
    try {
      return [
        [`(seeding ${await store.countTrajectories({ runId })} trajectories and ${steps} steps)`, seeded],
        [
          "one step's trajectories (listTrajectories run+step)",
          await timed(() => store.listTrajectories({ runId, step: steps })),
        ],
        [
          "one group's trajectories (listTrajectories group)",
          await timed(() => store.listTrajectories({ runId, groupId: `${runId}/s${steps}/task-0` })),
        ],
        ["usage totals of the run (getUsageTotals)", await timed(() => store.getUsageTotals(runId))],
        [
          "library show (getHeadVersion + getVersion + getVersionInfo)",
          await timed(async () => {
            const head = (await store.getHeadVersion(domain))!;
            await store.getVersion(domain, head);
            await store.getVersionInfo(domain, head);
          }),
        ],
        [
          "report (collectReportData + renderReport)",
          await timed(async () => renderReport(await collectReportData(store, runId))),
        ],
        ["studio GET /runs", await timed(() => get("/runs"))],
        [`studio GET /runs/${runId}`, await timed(() => get(`/runs/${runId}`))],
        [`studio GET /d/${domain}`, await timed(() => get(`/d/${domain}`))],
        [
          "compactRunTrajectories (one step)",
          await timed(() => store.compactRunTrajectories(runId, { fromStep: 1, throughStep: 1 })),
        ],
      ];
    } finally {
      studio.close();
    }
  } finally {
    await store.close();
  }
}
