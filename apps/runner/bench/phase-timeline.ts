import { performance } from "node:perf_hooks";
import type { SimServerStats } from "@tfgrpo/sim";
import type { BenchSim } from "./sim-thread.js";

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

/**
 * Marks are synchronous (they come from progress callbacks); the sim's counters are asked for at each mark (the
 * request leaves before the next phase sends anything) and read at the end. The sim counts a chat call when it
 * answers it, after its latency, so the counters of a boundary hold every call of the phases before it and none of
 * the next one's; an embedding is counted on arrival, which the request for the counters precedes.
 */
export function createTimeline(sim: BenchSim) {
  const marks: { name: string; atMs: number; stats: Promise<SimServerStats> }[] = [];
  const seen = new Set<string>();
  const at = (name: string) => {
    marks.push({ name, atMs: performance.now(), stats: sim.stats() });
  };
  return {
    /** Ends the current phase and starts `name`, once per name (later marks of a seen name are ignored). */
    mark(name: string) {
      if (seen.has(name)) return;
      seen.add(name);
      at(name);
    },
    /** Ends the last phase; the phases with their calls. */
    async end(): Promise<PhaseSample[]> {
      at("(end)");
      const stats = await Promise.all(marks.map((mark) => mark.stats));
      return marks.slice(0, -1).map((mark, i) => ({
        name: mark.name,
        startMs: mark.atMs,
        endMs: marks[i + 1]!.atMs,
        byKind: statsDelta(stats[i]!, stats[i + 1]!),
      }));
    },
  };
}
