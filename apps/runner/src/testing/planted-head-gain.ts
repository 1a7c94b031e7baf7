import { evalJsonRows } from "./eval-json-rows.js";
import { simEvalArgs } from "./sim-eval-args.js";
import { runCli } from "./spawn-cli.js";

/**
 * How much the head beats the planted library it started from (`domain@v1`) on held-out tasks: Mean@k of both, on the
 * same tasks and seeds, by `eval --sim`. Throws with the CLI's stderr when the evaluation fails.
 */
export async function plantedHeadGain(run: {
  domain: string;
  data: string;
  seed: number;
  db: string;
  k?: number;
}): Promise<{ planted: number; head: number; gain: number }> {
  const evaluated = await runCli(
    simEvalArgs({
      domain: run.domain,
      libraries: [`${run.domain}@v1`, `${run.domain}@head`],
      data: run.data,
      k: run.k ?? 2,
      seed: run.seed,
      concurrency: 8,
      db: run.db,
    }),
  );
  if (evaluated.code !== 0) throw new Error(`tfgrpo eval failed: ${evaluated.stderr.slice(-800)}`);
  const [planted, head] = evalJsonRows(evaluated.stdout).map((row) => row.meanAtK.estimate);
  return { planted: planted!, head: head!, gain: head! - planted! };
}
