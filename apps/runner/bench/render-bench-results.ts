import os from "node:os";
import { performance } from "node:perf_hooks";
import { renderTable } from "../src/cli-output/render-table.js";
import {
  batchTasks,
  groupSize,
  latencyMs,
  poolSetting,
  simPlacement,
  throughputRollouts,
  valTasks,
  workerConcurrency,
} from "./bench-settings.js";
import { idealDefinition } from "./ideal-time.js";
import type { StepResult } from "./measure-learning-step.js";
import type { ThroughputResult } from "./measure-rollout-throughput.js";
import type { TransportFloor } from "./measure-transport-floor.js";

export const seconds = (ms: number) => ms / 1000;

/** The benchmark's report: what was measured and how, the step tables, the throughput table. */
export function renderBenchResults(results: {
  steps: readonly StepResult[];
  throughput: readonly ThroughputResult[];
  /** Bursts of C bare model calls (no tfgrpo around them), per concurrency. */
  floor: readonly TransportFloor[];
  /** The one-minute load average when the benchmark started. */
  loadBefore: number;
  benchStarted: number;
}): string {
  const { steps, throughput, floor, loadBefore, benchStarted } = results;
  const out: string[] = [
    "",
    `Learning-step benchmark — SIMULATED world (sim model server, ${latencyMs} ms per model call, no jitter), ${os.cpus().length} CPU(s),`,
    simPlacement === "thread"
      ? "the sim server on a thread of its own in the runner process (as a provider is elsewhere: its answers are not overhead),"
      : "the sim server on the runner's own event loop (--sim in-process: the time it takes to answer counts as overhead),",
    `load average ${loadBefore.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end (other work on the machine shares the CPUs).`,
    `One step: ${batchTasks} train tasks x G=${groupSize} rollouts, validation of the candidate and the empty library on ${valTasks} held-out tasks.`,
    `"tools": math rollouts run Python in the bubblewrap sandbox; "direct": no tools (model calls only). Over NATS the actor`,
    "is one `tfgrpo serve --role actor --concurrency C` process; critic and curator run in the runner.",
    `rollout ms: mean latency of one train rollout inside the actor (its model calls alone: calls x ${latencyMs} ms).`,
    "tool call ms: mean duration of one code-interpreter call; 1st code ms: median of a train rollout's first one (a cold",
    `sandbox starts inside it). pool: the actor's warm sandbox pool (size ${poolSetting.size}, pre-imports ${poolSetting.preImport}).`,
    "load: the machine's one-minute load average at the start and the end of the step.",
    "CPU s: CPU time of the runner process (which also hosts the sim server, on either placement) and the actor worker, with their sandboxed",
    `Python children, during the step (${os.cpus().length} CPUs give at most ${os.cpus().length} CPU s per wall second).`,
    "",
  ];
  if (steps.length > 0) {
    out.push(
      renderTable(
        [
          { header: "mode", value: (r: StepResult) => r.mode },
          { header: "pool", value: (r) => (r.pool === undefined ? "-" : r.pool ? "on" : "off") },
          { header: "transport", value: (r) => r.transport },
          { header: "C", value: (r) => r.concurrency },
          { header: "rollouts", value: (r) => r.rollouts },
          { header: "model calls", value: (r) => r.calls },
          { header: "wall s", value: (r) => seconds(r.wallMs).toFixed(2), align: "right" },
          { header: "ideal s", value: (r) => seconds(r.idealMs).toFixed(2), align: "right" },
          { header: "wall/ideal", value: (r) => (r.wallMs / r.idealMs).toFixed(2), align: "right" },
          { header: "rollout ms", value: (r) => r.meanRolloutMs.toFixed(0), align: "right" },
          {
            header: "tool call ms",
            value: (r) => (r.mode === "tools" ? r.meanToolMs.toFixed(0) : "-"),
            align: "right",
          },
          {
            header: "1st code ms",
            value: (r) => (r.firstToolMs === undefined ? "-" : r.firstToolMs.toFixed(0)),
            align: "right",
          },
          { header: "CPU s", value: (r) => r.cpuS.toFixed(1), align: "right" },
          { header: "load", value: (r) => `${r.load[0].toFixed(1)}-${r.load[1].toFixed(1)}`, align: "right" },
        ],
        steps,
      ),
    );
    out.push("\nWhere the time goes, per phase: wall s / ideal s (model calls)");
    const phaseNames = [
      "setup",
      "rollout",
      "reward",
      "advantage",
      "consolidate",
      "validation",
      "gate+finish",
    ];
    out.push(
      renderTable(
        [
          { header: "mode", value: (r: StepResult) => r.mode },
          { header: "pool", value: (r) => (r.pool === undefined ? "-" : r.pool ? "on" : "off") },
          { header: "transport", value: (r) => r.transport },
          { header: "C", value: (r) => r.concurrency },
          ...phaseNames.map((name) => ({
            header: name,
            value: (r: StepResult) => {
              const phase = r.phases.find((p) => p.name === name);
              return phase
                ? `${seconds(phase.wallMs).toFixed(2)}/${seconds(phase.idealMs).toFixed(2)} (${phase.calls})`
                : "-";
            },
            align: "right" as const,
          })),
        ],
        steps,
      ),
    );
    out.push(`\n${idealDefinition}`);
  }
  if (floor.length > 0) {
    out.push(
      `\nThe floor under a direct rollout phase: C model calls at once with nothing of tfgrpo around them (median of 3`,
      `bursts), as wall time / ${latencyMs} ms. fetch: raw HTTP; SDK: the openai client with tfgrpo's fetch (retries, usage);`,
      "ChatOpenAI: LangChain's chat model as the actor calls it. A rollout phase of C direct rollouts is one such burst",
      "plus the rollouts' own work, so its wall/ideal is above the ChatOpenAI column.\n",
    );
    out.push(
      renderTable(
        [
          { header: "C", value: (r: TransportFloor) => r.concurrency },
          { header: "fetch", value: (r) => (r.fetchMs / latencyMs).toFixed(2), align: "right" },
          { header: "SDK", value: (r) => (r.sdkMs / latencyMs).toFixed(2), align: "right" },
          { header: "ChatOpenAI", value: (r) => (r.chatMs / latencyMs).toFixed(2), align: "right" },
        ],
        floor,
      ),
    );
  }
  if (throughput.length > 0) {
    out.push(
      `\nRollout throughput over NATS: ${throughputRollouts.tools} (tools) / ${throughputRollouts.direct} (direct) rollouts dispatched at once (runRollouts), each worker a separate`,
    );
    out.push(
      `\`tfgrpo serve --role actor --concurrency ${workerConcurrency}\` process, after a warm-up batch. ideal/s = rollouts / (their model`,
    );
    out.push(`calls list-scheduled on workers x ${workerConcurrency} slots x ${latencyMs} ms).\n`);
    out.push(
      renderTable(
        [
          { header: "mode", value: (r: ThroughputResult) => r.mode },
          { header: "workers", value: (r) => r.workers },
          { header: "in flight", value: (r) => r.inFlight },
          { header: "rollouts", value: (r) => r.rollouts },
          { header: "wall s", value: (r) => seconds(r.wallMs).toFixed(2), align: "right" },
          { header: "rollouts/s", value: (r) => ((r.rollouts * 1000) / r.wallMs).toFixed(1), align: "right" },
          { header: "ideal/s", value: (r) => ((r.rollouts * 1000) / r.idealMs).toFixed(1), align: "right" },
          {
            header: "of ideal",
            value: (r) => `${Math.round((100 * r.idealMs) / r.wallMs)}%`,
            align: "right",
          },
          { header: "rollout ms", value: (r) => r.meanRolloutMs.toFixed(0), align: "right" },
          {
            header: "tool call ms",
            value: (r) => (r.mode === "tools" ? r.meanToolMs.toFixed(0) : "-"),
            align: "right",
          },
          { header: "CPU s", value: (r) => r.cpuS.toFixed(1), align: "right" },
        ],
        throughput,
      ),
    );
  }
  out.push(`\nbench time ${seconds(performance.now() - benchStarted).toFixed(0)} s`);
  return out.join("\n");
}
