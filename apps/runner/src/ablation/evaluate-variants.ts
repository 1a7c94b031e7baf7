import type { Task, Trajectory } from "@tfgrpo/protocol";
import type { CommandOutput } from "../cli-options/command-output.js";
import { createProgress } from "../cli-output/progress.js";
import { buildControls, type ControlLibrary, serveControls } from "../learn/control-libraries.js";
import {
  evaluateLibraries,
  type LibraryEvaluation,
  type LibraryUnderTest,
} from "../learn/evaluate-libraries.js";
import type { AblationVariant } from "../learn/render-ablation-table.js";
import type { EvaluatedLibrary } from "../learn/run-evaluation.js";
import { createRuntime } from "../runtime/create-runtime.js";
import type { AblationSettings } from "./ablation-settings.js";
import { libraryOf, type VariantRun } from "./learn-variant.js";

/** The evaluation's id in the full run's store (its report shows it under this id). */
export const ablationEvaluationId = "ablation";

export interface VariantEvaluations {
  /** Each setting's head library (and no library), by setting. */
  evaluations: Map<AblationVariant, LibraryEvaluation>;
  /** Every test trajectory of every evaluation, by id. */
  trajectories: Map<string, Trajectory>;
  /** The placebo controls of the full run's library, in the order they were built. */
  controlEvaluations: { control: ControlLibrary; evaluation: LibraryEvaluation }[];
}

/**
 * Every library on the same test tasks and sample seeds, each in its own database (its own stats), no library
 * in the full run's; with `controls`, the placebo controls of the full run's library beside it.
 */
export async function evaluateVariants(
  runs: Record<VariantRun["variant"], VariantRun>,
  tasks: readonly Task[],
  context: {
    settings: AblationSettings;
    config: string;
    concurrency: number;
    output: CommandOutput;
    controls: boolean;
  },
): Promise<VariantEvaluations> {
  const { settings, config, concurrency, output } = context;
  const evaluations = new Map<AblationVariant, LibraryEvaluation>();
  const trajectories = new Map<string, Trajectory>();
  const controlEvaluations: { control: ControlLibrary; evaluation: LibraryEvaluation }[] = [];
  for (const variant of ["full", "no-gt", "g1", "no-exposure", "direct"] as const) {
    const run = runs[variant];
    const libraries: { variant: AblationVariant; library: LibraryUnderTest }[] = [
      ...(variant === "full"
        ? [{ variant: "none" as const, library: { label: "none", library: null } }]
        : []),
      { variant, library: libraryOf(run, settings.domain) },
    ];
    // The controls are built from the full run's library and evaluated in its database, beside it.
    const withControls = variant === "full" && context.controls;
    const results = await evaluateIn(
      run,
      libraries,
      tasks,
      settings,
      config,
      concurrency,
      output,
      withControls,
    );
    for (const [index, evaluation] of results.evaluations.entries()) {
      if (index < libraries.length) evaluations.set(libraries[index]!.variant, evaluation);
      else controlEvaluations.push({ control: results.controls[index - libraries.length]!, evaluation });
    }
    for (const trajectory of results.trajectories) trajectories.set(trajectory.id, trajectory);
  }
  return { evaluations, trajectories, controlEvaluations };
}

/** Libraries of one setting (and, with `controls`, the placebo controls of the first) in its run's database. */
async function evaluateIn(
  run: VariantRun,
  libraries: readonly { library: LibraryUnderTest }[],
  tasks: readonly Task[],
  settings: AblationSettings,
  config: string,
  concurrency: number,
  output: CommandOutput,
  controls = false,
): Promise<{ evaluations: LibraryEvaluation[]; trajectories: Trajectory[]; controls: ControlLibrary[] }> {
  await using runtime = await createRuntime({
    db: run.database,
    config,
    localRoles: ["actor", "critic", "curator"],
    concurrency,
    log: (line) => output.stderr.write(`${line}\n`),
  });
  const evaluated = libraries.map((l) => l.library);
  const built = controls
    ? await buildControls({
        store: runtime.store,
        domain: settings.domain,
        libraries: evaluated.filter((l) => l.library !== null),
        seed: settings.seed,
      })
    : { controls: [], notes: [] };
  for (const note of built.notes) output.stderr.write(`${note}\n`);
  serveControls(runtime, built.controls);
  const all: EvaluatedLibrary[] = [...evaluated, ...built.controls.map((c) => c.library)];
  const bar = createProgress({ label: `test rollouts (${run.variant})`, total: 0, stream: output.stderr });
  const evaluations = await evaluateLibraries({
    bus: runtime.bus,
    store: runtime.store,
    runId: run.runId,
    evaluationId: ablationEvaluationId,
    tasks,
    libraries: all,
    k: settings.k,
    temperature: 0.3,
    // The same seed in every database: the i-th sample of a task gets the same seed under every setting.
    seed: settings.seed + 1000,
    purpose: "eval",
    mode: settings.mode,
    concurrency,
    onProgress: (done, total) => {
      bar.setTotal(total);
      bar.update(done);
    },
  });
  bar.done();
  const ids = evaluations.flatMap((e) => e.tasks.flatMap((t) => t.trajectoryIds));
  const trajectories: Trajectory[] = [];
  for (let i = 0; i < ids.length; i += 500)
    trajectories.push(
      ...(await runtime.store.listTrajectories({ runId: run.runId, ids: ids.slice(i, i + 500) })),
    );
  return { evaluations, trajectories, controls: built.controls };
}
