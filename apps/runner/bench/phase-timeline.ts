import { performance } from "node:perf_hooks";
import type { SimServer, SimServerStats } from "@tfgrpo/sim";

// Phases of one step, from the graph's progress callbacks and log lines, with the sim's calls in each.

export interface PhaseSample {
  name: string;
  startMs: number;
  endMs: number;
  byKind: Record<string, number>;
}

function statsDelta(before: SimServerStats, after: SimServerStats): Record<string, number> {
  const delta: Record<string, number> = {};
  for (const [kind, n] of Object.entries(after.byKind)) {
    const d = (n ?? 0) - ((before.byKind as Record<string, number | undefined>)[kind] ?? 0);
    if (d > 0 && kind !== "models" && kind !== "corpus") delta[kind] = d;
  }
  return delta;
}

export function createTimeline(sim: SimServer) {
  const phases: PhaseSample[] = [];
  let current: { name: string; startMs: number; stats: SimServerStats } | null = null;
  const seen = new Set<string>();
  const close = () => {
    if (!current) return;
    phases.push({
      name: current.name,
      startMs: current.startMs,
      endMs: performance.now(),
      byKind: statsDelta(current.stats, sim.stats()),
    });
    current = null;
  };
  /** Ends the current phase and starts `name`, once per name (later marks of a seen name are ignored). */
  const mark = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    close();
    current = { name, startMs: performance.now(), stats: sim.stats() };
  };
  return { mark, end: close, phases };
}
