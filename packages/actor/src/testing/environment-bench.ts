import { performance } from "node:perf_hooks";
import type { RolloutRequest, Task, Trajectory } from "@tfgrpo/protocol";
import { createToolResources, openToolset, type ToolsConfig } from "@tfgrpo/tools";
import { makespan } from "./makespan.js";

/*
 * What the environment benchmarks measure (issue 33), once for every domain that has one: the per-attempt start-up of
 * a domain's MCP environment and the rollout rate of an actor over it, against the model-latency ideal. The tickets
 * bench (packages/actor/bench) and the τ²-retail bench (apps/runner/bench) differ only in their servers and tasks.
 */

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/**
 * `runs` start-ups of the domain's MCP tool `mcp:<domain>` as an attempt pays them (connect, initialize, tools/list,
 * and for an isolated environment its reset and state read), p50/p99 over the runs; tasks taken in turn.
 */
export async function measureStartups(options: {
  label: string;
  tools: ToolsConfig;
  domain: string;
  tasks: readonly Task[];
  runs: number;
}): Promise<Record<string, unknown>> {
  const { label, tools, domain, tasks, runs } = options;
  const resources = createToolResources(tools);
  const times: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      const toolset = await openToolset({
        domain,
        resources,
        task: tasks[i % tasks.length]!,
        tools: [`mcp:${domain}`],
      });
      times.push(performance.now() - started);
      await toolset.close();
    }
  } finally {
    await resources.close();
  }
  return {
    case: label,
    runs,
    "p50 ms": quantile(times, 0.5).toFixed(1),
    "p99 ms": quantile(times, 0.99).toFixed(1),
  };
}

export interface RolloutRate {
  rollouts: number;
  seconds: number;
  modelCallsPerRollout: number;
  toolCallsPerRollout: number;
  /** Rollouts that ended without an answer (and that `check` let count). */
  unanswered: number;
  /**
   * What pure model latency allows for these rollouts: each a chain of its own model calls at the latency,
   * list-scheduled in dispatch order on C slots (`makespan`), as the run dispatched them. The last rollouts of a
   * short run leave slots idle however fast the rest is, and this ideal counts that.
   */
  idealPerSecond: number;
  /** C / (mean model calls per rollout x latency): every slot busy to the end, which no finite run reaches. */
  fluidPerSecond: number;
}

/**
 * `total` rollouts of the tasks, taken in turn, `concurrency` at a time; `check` throws for a rollout that
 * invalidates the measurement (an infrastructure failure, say).
 */
export async function measureRolloutRate(options: {
  rollout: (request: RolloutRequest) => Promise<Trajectory>;
  tasks: readonly Task[];
  concurrency: number;
  total: number;
  modelLatencyMs: number;
  check: (trajectory: Trajectory, attempt: number) => void;
}): Promise<RolloutRate> {
  const { tasks, concurrency, total } = options;
  let next = 0;
  let modelCalls = 0;
  let toolCalls = 0;
  const callsByAttempt: number[] = [];
  let unanswered = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const attempt = next++;
        const trajectory = await options.rollout({
          runId: "bench",
          groupId: `g${attempt}`,
          task: tasks[attempt % tasks.length]!,
          attempt,
          library: null,
        });
        options.check(trajectory, attempt);
        if (trajectory.stopReason !== "answered") unanswered++;
        modelCalls += trajectory.usage.calls;
        callsByAttempt[attempt] = trajectory.usage.calls;
        toolCalls += trajectory.toolCalls?.length ?? 0;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const modelCallsPerRollout = modelCalls / total;
  return {
    rollouts: total,
    seconds,
    modelCallsPerRollout,
    toolCallsPerRollout: toolCalls / total,
    unanswered,
    idealPerSecond: total / ((makespan(callsByAttempt, concurrency) * options.modelLatencyMs) / 1000),
    fluidPerSecond: concurrency / ((modelCallsPerRollout * options.modelLatencyMs) / 1000),
  };
}

/** A rate's columns of the benchmark table: measured, ideal and their ratio. */
export function rateColumns(rate: RolloutRate): Record<string, string> {
  const perSecond = rate.rollouts / rate.seconds;
  return {
    "rollouts/s": perSecond.toFixed(2),
    "ideal rollouts/s": rate.idealPerSecond.toFixed(2),
    "share of ideal": `${((100 * perSecond) / rate.idealPerSecond).toFixed(0)}%`,
    "share of C / mean": `${((100 * perSecond) / rate.fluidPerSecond).toFixed(0)}%`,
  };
}
