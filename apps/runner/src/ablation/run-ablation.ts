import { mkdir } from "node:fs/promises";
import path from "node:path";
import { loadDataset } from "@tfgrpo/protocol";
import { InvalidArgumentError } from "commander";
import type { CommandOutput } from "../cli-options/command-output.js";
import { newRunId } from "../cli-options/run-id.js";
import { type AblationRow, renderAblationTable } from "../learn/render-ablation-table.js";
import type { StoredEvaluation } from "../report/report-data.js";
import { loadSim, startSimWorld } from "../runtime/start-sim-world.js";
import { writeSimData, writeWithoutAnswers } from "./ablation-data.js";
import { ablationRows } from "./ablation-rows.js";
import { type AblateOptions, ablationSettingsFor } from "./ablation-settings.js";
import { evaluateVariants } from "./evaluate-variants.js";
import { learnVariant, type VariantRun } from "./learn-variant.js";
import { simBehaviour, simOwnFall } from "./sim-fall.js";
import { storeAblation } from "./store-ablation.js";

export interface AblationOutcome {
  workspace: string;
  /** The paper's settings, in its order. */
  rows: AblationRow[];
  /** Placebo controls of the full run's library (empty with `controls: false`). */
  controls: AblationRow[];
  evaluation: StoredEvaluation;
  report: string;
}

/**
 * The paper's math ablation, reproduced as real runs: full Training-Free GRPO (G = 5), G = 1 (single-trajectory
 * reflection), no ground truth (majority-vote labels, answers removed from the training file) and direct experiences
 * (as many lessons as the full library holds, written without rollouts), each learning in a database of its own from
 * the same data and seed; then every head library and no library on the same held-out test tasks with the same
 * seeds (a paired comparison), in the paper's order. The table is stored as an evaluation of the full run, so the
 * full run's report shows it.
 */
export async function runAblation(
  options: AblateOptions,
  output: CommandOutput = { stderr: process.stderr, stdout: process.stdout },
): Promise<AblationOutcome> {
  const log = (line: string) => output.stderr.write(`${line}\n`);
  const started = Date.now();
  const workspace = path.resolve(options.resume ?? path.join(options.dir, newRunId("ablate")));
  await mkdir(workspace, { recursive: true });
  const settings = await ablationSettingsFor(workspace, options);
  const simulator = settings.simulated ? await loadSim() : null;
  const sim = simulator
    ? await startSimWorld({
        seed: settings.seed,
        ...(settings.simFall === null
          ? {}
          : { behaviour: simBehaviour(settings.simFall, simulator.defaultPolicyBehaviour) }),
      })
    : null;
  try {
    const config = settings.config ?? sim?.config;
    if (!config) throw new InvalidArgumentError("ablate needs --config models.yaml (or --sim)");
    log(
      `tfgrpo ablate${sim ? " — SIMULATED world (packages/sim): a test world, not a real model" : ""}\nworkspace: ${workspace}`,
    );
    if (simulator) await writeSimData(settings, simulator);
    const noAnswers = path.join(workspace, `${settings.domain}-train-no-answers.jsonl`);
    await writeWithoutAnswers(settings.data.train, noAnswers, settings.domain);

    const context = { workspace, settings, config, concurrency: options.concurrency, output };
    const full = await learnVariant("full", {}, context);
    const noGroundTruth = await learnVariant("no-gt", { groundTruth: false, train: noAnswers }, context);
    const single = await learnVariant("g1", { groupSize: 1 }, context);
    const sameExposure = await learnVariant("no-exposure", { exposure: false }, context);
    const lessons = settings.directLessons ?? Math.max(1, full.lessons);
    const direct = await learnVariant("direct", { directExperiences: lessons }, context);
    const runs: Record<VariantRun["variant"], VariantRun> = {
      full,
      "no-gt": noGroundTruth,
      g1: single,
      "no-exposure": sameExposure,
      direct,
    };

    // Every library on the same test tasks and sample seeds, each in its own database (its own stats), no library
    // in the full run's.
    const tasks = await loadDataset(settings.data.test, { domain: settings.domain, requireAnswer: true });
    log(`\n== held-out test: ${tasks.length} tasks, k=${settings.k}, the same seeds for every setting ==`);
    const evaluated = await evaluateVariants(runs, tasks, {
      settings,
      config,
      concurrency: options.concurrency,
      output,
      controls: options.controls !== false,
    });
    const { rows, controls } = ablationRows(evaluated, runs, settings, lessons);
    const { evaluation, report } = await storeAblation({
      workspace,
      settings,
      full,
      rows,
      controls,
      simulated: Boolean(sim),
    });

    const write = (text: string) => output.stdout.write(text);
    write(
      `\nAblations on ${tasks.length} held-out test tasks, k=${settings.k}, the same seeds for every setting, actor ${settings.mode === "tools" ? "with tools" : "answering directly"}` +
        `${sim ? `\nSIMULATED world, not a real model: its policy falls into ${Math.round((settings.simFall ?? simOwnFall) * 100)}% of the pitfalls its prompt does not address` : ""}\n`,
    );
    write(`${renderAblationTable([...rows, ...controls], settings.k)}\n`);
    write(
      `Δ is the paired difference of Mean@${settings.k} against no library, 95% bootstrap intervals over tasks. ` +
        "The paper's columns are DeepSeek-V3.1 + ReAct on AIME (Mean@32), for the order, not the scale.\n",
    );
    if (controls.length > 0)
      write(
        "Controls are placebo libraries built from the full run's library for this evaluation only: keyword stubs " +
          "(each entry cut to <= 3 content words), shuffled (each entry's situation with another entry's action), " +
          "other domain (another domain's lessons). A lift they share is not specific to the lessons.\n",
      );
    write(`report: ${report}\nworkspace: ${workspace}\n`);
    log(`ablate finished in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return { workspace, rows, controls, evaluation, report };
  } finally {
    await sim?.close();
  }
}
