import { seedFrom, type Task } from "@tfgrpo/protocol";
import { average } from "../average.js";
import { evaluateLibraries } from "../evaluate-libraries.js";
import { statsRevisionFor } from "./credit.js";
import type { LearnDependencies } from "./learn-dependencies.js";

/**
 * Each version's per-task mean reward on held-out tasks, after this step's credit (the stats at `statsRevision`),
 * with the same tasks and seeds for every version (a paired comparison). Results are keyed by library, not by step
 * (`name` + label): the head's score on the same tasks and seeds is measured once and reused.
 */
export async function scoreOnValidation(
  { bus, store, options, runId, domain, progress, stop }: LearnDependencies,
  { step, statsRevision }: { step: number; statsRevision: string | null },
  tasks: readonly Task[],
  versions: readonly (number | null)[],
  name: "precheck" | "validation",
): Promise<number[][]> {
  const bar = progress(`step ${step} ${name}`);
  const evaluations = await evaluateLibraries({
    bus,
    store,
    runId,
    evaluationId: name,
    tasks,
    libraries: versions.map((version) => ({
      label: version === null ? "none" : `${domain}@v${version}`,
      library:
        version === null ? null : { domain, version, statsRevision: statsRevisionFor(runId, statsRevision) },
    })),
    k: options.valK,
    temperature: options.evalTemperature,
    seed: seedFrom(options.seed, "validation"),
    purpose: "validate",
    mode: options.mode,
    groundTruth: options.groundTruth,
    concurrency: options.concurrency,
    onProgress: bar.update,
    ...stop,
  });
  bar.done();
  return evaluations.map((e) => e.tasks.map((t) => average(t.rewards)));
}
