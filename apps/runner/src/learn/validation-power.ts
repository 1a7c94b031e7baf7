import {
  detectableGainInSlices,
  gateConfigFor,
  resolveCuratorConfig,
  sequentialValidationRounds,
} from "@tfgrpo/curator";
import type { Task } from "@tfgrpo/protocol";
import type { LearnOptions } from "./learn-options.js";
import { minSamplesWithoutAnswers, validationNeedsPooledLabels } from "./nodes/score-on-validation.js";

const points = (value: number) => `${Math.round(value * 100)}`;
const percent = (value: number) => `${(value * 100).toFixed(value < 0.1 ? 1 : 0)}%`;

/**
 * What the run's validation set can detect, said as the run starts: the smallest gain the gate commits 80% of
 * the time and how often it commits a 10-point loss, by Monte Carlo over the real gate rule (`detectableGain`) at
 * the curator's default gate settings, on tasks with no known difficulty (every task near 50%: the noisiest case).
 * The Monte Carlo runs in slices (up to a second of CPU on a small set), so a run that says it while its first
 * rollouts start is not held up by it.
 */
export async function describeValidationPower(
  options: Pick<LearnOptions, "gate" | "valK" | "valMaxK" | "groundTruth">,
  val: readonly Task[],
): Promise<string> {
  const rule = options.gate ?? "sequential";
  const config = gateConfigFor(resolveCuratorConfig().gate, rule);
  const pooled = validationNeedsPooledLabels(options, val);
  const inRounds = rule === "sequential" && !pooled;
  const samplesPerTask = inRounds
    ? sequentialValidationRounds(val.length, options.valMaxK)
    : pooled
      ? Math.max(options.valK, minSamplesWithoutAnswers)
      : options.valK;
  const found = await detectableGainInSlices({ tasks: val.length, samplesPerTask, config, inRounds });
  const budget = `${val.length} task${val.length === 1 ? "" : "s"} x ${inRounds ? "up to " : ""}${samplesPerTask} sample${samplesPerTask === 1 ? "" : "s"}`;
  const named = `gate ${rule}${options.gate ? "" : ", the curator's default"}${pooled && inRounds === false && rule === "sequential" ? ", one look: labels pool every sample" : ""}`;
  const detects =
    found.gain === null
      ? "the gate cannot commit a candidate 80% of the time at any gain"
      : `the gate can commit a candidate only if it wins by about ${points(found.gain)} points (80% of the time at that gain)`;
  return `validation: ${budget} (${named}): ${detects}; a ${points(found.loss)}-point loss is committed ${percent(found.lossCommitRate)} of the time (simulated with every task near 50% success)`;
}
