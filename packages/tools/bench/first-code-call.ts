import { performance } from "node:perf_hooks";
import {
  type CodeInterpreter,
  createCodeInterpreter,
  defaultPreImports,
} from "../src/code-interpreter/code-interpreter.js";

// The first code call of a rollout (a fresh session's first cell), cold (the session starts its sandbox) and warm (a
// pooled sandbox with sympy, numpy, math and fractions imported, or with the pre-imports the pool learned from the
// sessions before: "auto", the default), and the CPU each rollout's sandbox used.

export const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
export const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    p50Ms: quantile(sorted, 0.5).toFixed(1),
    p95Ms: quantile(sorted, 0.95).toFixed(1),
    runs: times.length,
  };
};

/** Two light first cells (the call's cost, not the maths): importing sympy and numpy, or only fractions. */
const cells = {
  sympy: "import sympy, numpy\nprint(sympy.Rational(1, 3) + 1, numpy.arange(4).sum())",
  fractions: "from fractions import Fraction\nprint(Fraction(3, 4) + Fraction(1, 6))",
};

/** CPU seconds of the sandbox's Python process so far (start-up, pre-imports and cells), asked from inside. */
const cpuCell = "import resource as _r\n_u = _r.getrusage(_r.RUSAGE_SELF)\nprint(_u.ru_utime + _u.ru_stime)";

async function rollout(interpreter: CodeInterpreter, cell: string) {
  const session = interpreter.session();
  try {
    const started = performance.now();
    const first = await session.run(cell);
    const firstMs = performance.now() - started;
    if (first.exitCode !== 0) throw new Error(`first cell failed: ${first.stderr}`);
    const cpu = Number((await session.run(cpuCell)).stdout.trim());
    return { firstMs, cpuS: cpu };
  } finally {
    await session.close();
  }
}

const cpuMean = (values: number[]) => (values.reduce((a, b) => a + b, 0) / values.length).toFixed(2);

export async function firstCodeCallRows(runs = 15) {
  const rows: Record<string, unknown>[] = [];
  const cold = createCodeInterpreter({ timeoutMs: 20_000 });
  const pooled = createCodeInterpreter({
    timeoutMs: 20_000,
    pool: { size: 4, preImport: [...defaultPreImports] },
  });
  const learners: CodeInterpreter[] = [];
  try {
    for (const [name, cell] of Object.entries(cells)) {
      const coldRuns = [];
      for (let i = 0; i < runs; i++) coldRuns.push(await rollout(cold, cell));
      rows.push({
        case: `first code call of a rollout, cold sandbox (${name} cell)`,
        ...summary(coldRuns.map((r) => r.firstMs)),
        "sandbox CPU s/rollout": cpuMean(coldRuns.map((r) => r.cpuS)),
      });
      const warmRuns = [];
      for (let i = 0; i < runs; i++) {
        await pooled.warm(1);
        warmRuns.push(await rollout(pooled, cell));
      }
      rows.push({
        case: `first code call of a rollout, warm pool importing ${defaultPreImports.join(", ")} (${name} cell)`,
        ...summary(warmRuns.map((r) => r.firstMs)),
        "sandbox CPU s/rollout": cpuMean(warmRuns.map((r) => r.cpuS)),
      });
      // "auto": a fresh pool learns from these sessions. Its first 4 sandboxes were started before it knew anything,
      // so the row counts the rollouts after them.
      const learner = createCodeInterpreter({ timeoutMs: 20_000, pool: { size: 4 } });
      learners.push(learner);
      const autoRuns = [];
      for (let i = 0; i < runs; i++) {
        await learner.warm(1);
        autoRuns.push(await rollout(learner, cell));
      }
      rows.push({
        case: `first code call of a rollout, warm pool "auto", after its first 4 (learned: ${learner.poolStats()!.preImport.join(", ") || "nothing"}; ${name} cell)`,
        ...summary(autoRuns.slice(4).map((r) => r.firstMs)),
        "sandbox CPU s/rollout": cpuMean(autoRuns.slice(4).map((r) => r.cpuS)),
      });
    }

    // Sustained demand: rollouts back to back, 4 at a time, each calling code 300 ms (one model call) after it
    // starts; the pool refills in the background at its CPU share, so some first calls find it empty.
    const demand = createCodeInterpreter({
      timeoutMs: 20_000,
      pool: { size: 8, preImport: [...defaultPreImports] },
    });
    await demand.warm();
    const times: number[] = [];
    let next = 0;
    const total = 32;
    const worker = async () => {
      while (next < total) {
        next++;
        await new Promise((resolve) => setTimeout(resolve, 300));
        times.push((await rollout(demand, cells.fractions)).firstMs);
      }
    };
    const started = performance.now();
    await Promise.all([worker(), worker(), worker(), worker()]);
    const wallS = (performance.now() - started) / 1000;
    const stats = demand.poolStats()!;
    rows.push({
      case: `${total} rollouts, 4 at a time, 300 ms before the first call, pool of 8 (${stats.handedOut} warm, ${stats.missed} cold; ${(total / wallS).toFixed(1)} rollouts/s)`,
      ...summary(times),
    });
    await demand.close();
  } finally {
    await Promise.all([cold.close(), pooled.close(), ...learners.map((learner) => learner.close())]);
  }
  return rows;
}
