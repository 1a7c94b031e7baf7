import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { loadDataset, safeParseJson, type Task, TfgrpoError, type Trajectory } from "@tfgrpo/protocol";
import type { FallProbabilities, PolicyBehaviour } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { type Command, InvalidArgumentError } from "commander";
import { z } from "zod";
import { actorModeOption } from "../cli-options/actor-mode-option.js";
import type { CommandOutput } from "../cli-options/command-output.js";
import { nonNegativeInteger, positiveInteger, probability } from "../cli-options/number-arguments.js";
import { newRunId } from "../cli-options/run-id.js";
import { simOption } from "../cli-options/sim-option.js";
import { createProgress } from "../cli-output/progress.js";
import { buildControls, type ControlLibrary, serveControls } from "../learn/control-libraries.js";
import {
  evaluateLibraries,
  type LibraryEvaluation,
  type LibraryUnderTest,
} from "../learn/evaluate-libraries.js";
import {
  type AblationRow,
  type AblationVariant,
  ablationVariants,
  paperAblation,
  renderAblationTable,
} from "../learn/render-ablation-table.js";
import type { EvaluatedLibrary } from "../learn/run-evaluation.js";
import { summarizeEvaluation } from "../learn/summarize-evaluation.js";
import type { StoredEvaluation } from "../report/report-data.js";
import { writeReport } from "../report/write-report.js";
import { createRuntime } from "../runtime/create-runtime.js";
import { loadSim, type SimModule, startSimWorld } from "../runtime/start-sim-world.js";
import { type LearnCommandOptions, learn } from "./learn.js";

/** What an ablation workspace is run with; kept in `ablation.json` so `--resume DIR` continues with the same. */
const settingsSchema = z.object({
  domain: z.string().min(1),
  simulated: z.boolean(),
  /** The models config of a run on real models (the sim world's config is found again at each start). */
  config: z.string().nullable(),
  data: z.object({ train: z.string(), val: z.string(), test: z.string() }),
  /** Sizes of the generated sim suites (null: the user's files). */
  sizes: z.object({ train: z.number().int(), val: z.number().int(), test: z.number().int() }).nullable(),
  /** Chance the sim policy falls into a pitfall nothing in its prompt addresses (null: the sim's default). */
  simFall: z.number().min(0).max(1).nullable(),
  seed: z.number().int(),
  epochs: z.number().int().min(1),
  groupSize: z.number().int().min(2),
  batchSize: z.number().int().min(1).nullable(),
  k: z.number().int().min(1),
  mode: z.enum(["tools", "direct"]),
  directLessons: z.number().int().min(1).nullable(),
});
type AblationSettings = z.infer<typeof settingsSchema>;

export interface AblateOptions {
  sim?: boolean;
  config?: string;
  domain: string;
  /** Where a new ablation workspace is created. */
  dir: string;
  /** An earlier ablation workspace to continue (finished runs are reused, unfinished ones resumed). */
  resume?: string;
  train?: string;
  val?: string;
  test?: string;
  trainSize: number;
  valSize: number;
  testSize: number;
  seed: number;
  epochs: number;
  groupSize: number;
  batchSize?: number;
  k: number;
  concurrency: number;
  mode: "tools" | "direct";
  directLessons?: number;
  /**
   * --sim: chance the policy falls into a pitfall its prompt does not address (the base model's weakness); default
   * `paperSimFall`, a policy about as strong without a library as the paper's model.
   */
  simFall?: number;
  /**
   * Placebo controls of the full run's library beside the settings (keyword stubs, shuffled lessons, another domain's
   * lessons): default true; false with `--no-controls`.
   */
  controls?: boolean;
}

export interface AblationOutcome {
  workspace: string;
  /** The paper's settings, in its order. */
  rows: AblationRow[];
  /** Placebo controls of the full run's library (empty with `controls: false`). */
  controls: AblationRow[];
  evaluation: StoredEvaluation;
  report: string;
}

interface VariantRun {
  variant: Exclude<AblationVariant, "none">;
  runId: string;
  database: string;
  headVersion: number | null;
  lessons: number;
}

const evaluationId = "ablation";

/**
 * The sim's default policy is weak (it falls into 80% of unaddressed pitfalls: ~20% of math tasks solved without a
 * library), while the paper's ablation is about a strong model (DeepSeek-V3.1: 80.0 / 67.9 on AIME without one).
 * Which setting wins depends on that (docs/ablations.md), so the sim ablation runs a policy of about the paper's
 * strength unless told otherwise: 25% (no library: about 70% of the sim's math tasks with tools, 55-60% without).
 */
export const paperSimFall = 0.25;

/**
 * The sim's own policy's chance (`defaultPolicyBehaviour.fall.none`), written here for the help text, which is built
 * before anything loads the sim (only `--sim` does); ablate.test.ts checks the two agree.
 */
export const simOwnFall = 0.8;

/**
 * The paper's math ablation, reproduced as real runs: full Training-Free GRPO (G = 5), G = 1 (single-trajectory
 * reflection), no ground truth (majority-vote labels, answers removed from the training file) and direct experiences
 * (as many lessons as the full library holds, written without rollouts), each learning in a database of its own from
 * the same data and seed; then every head library and no library on the same held-out test tasks with the same
 * seeds (a paired comparison), in the paper's order. The table is stored as an evaluation of the full run, so the
 * full run's report shows it.
 */
export async function ablate(
  options: AblateOptions,
  output: CommandOutput = { stderr: process.stderr, stdout: process.stdout },
): Promise<AblationOutcome> {
  const log = (line: string) => output.stderr.write(`${line}\n`);
  const started = Date.now();
  const workspace = path.resolve(options.resume ?? path.join(options.dir, newRunId("ablate")));
  await mkdir(workspace, { recursive: true });
  const settings = await settingsFor(workspace, options);
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

    const prefix = path.basename(workspace);
    const learnVariant = async (
      variant: VariantRun["variant"],
      overrides: Partial<LearnCommandOptions>,
    ): Promise<VariantRun> => {
      const runId = `${prefix}-${variant}`;
      const database = path.join(workspace, variant, "tfgrpo.db");
      log(`\n== ${paperAblation[variant].setting}: run ${runId} ==`);
      const existing = await storedRunStatus(database, runId);
      if (existing !== "finished") {
        // Step tables go to stderr: stdout is for the ablation table.
        await learn(
          {
            config,
            domain: settings.domain,
            train: settings.data.train,
            val: settings.data.val,
            epochs: settings.epochs,
            groupSize: settings.groupSize,
            ...(settings.batchSize ? { batchSize: settings.batchSize } : {}),
            concurrency: options.concurrency,
            groundTruth: true,
            seed: settings.seed,
            db: database,
            valK: 1,
            precheck: 0,
            mode: settings.mode,
            baseline: variant === "full",
            localRoles: "actor,critic,curator",
            temperature: 0.7,
            evalTemperature: 0.3,
            ...(existing === null ? { runId } : { resume: runId }),
            ...overrides,
          },
          { stdout: output.stderr, stderr: output.stderr },
        );
      } else {
        log(`run ${runId} already finished: reusing its library`);
      }
      return { variant, runId, database, ...(await headOf(database, settings.domain)) };
    };

    const full = await learnVariant("full", {});
    const noGroundTruth = await learnVariant("no-gt", { groundTruth: false, train: noAnswers });
    const single = await learnVariant("g1", { groupSize: 1 });
    const lessons = settings.directLessons ?? Math.max(1, full.lessons);
    const direct = await learnVariant("direct", { directExperiences: lessons });
    const runs: Record<VariantRun["variant"], VariantRun> = {
      full,
      "no-gt": noGroundTruth,
      g1: single,
      direct,
    };

    // Every library on the same test tasks and sample seeds, each in its own database (its own stats), no library
    // in the full run's.
    const tasks = await loadDataset(settings.data.test, { domain: settings.domain, requireAnswer: true });
    log(`\n== held-out test: ${tasks.length} tasks, k=${settings.k}, the same seeds for every setting ==`);
    const evaluations = new Map<AblationVariant, LibraryEvaluation>();
    const trajectories = new Map<string, Trajectory>();
    const controlEvaluations: { control: ControlLibrary; evaluation: LibraryEvaluation }[] = [];
    for (const variant of ["full", "no-gt", "g1", "direct"] as const) {
      const run = runs[variant];
      const libraries: { variant: AblationVariant; library: LibraryUnderTest }[] = [
        ...(variant === "full"
          ? [{ variant: "none" as const, library: { label: "none", library: null } }]
          : []),
        { variant, library: libraryOf(run, settings.domain) },
      ];
      // The controls are built from the full run's library and evaluated in its database, beside it.
      const withControls = variant === "full" && options.controls !== false;
      const results = await evaluateIn(
        run,
        libraries,
        tasks,
        settings,
        config,
        options.concurrency,
        output,
        withControls,
      );
      for (const [index, evaluation] of results.evaluations.entries()) {
        if (index < libraries.length) evaluations.set(libraries[index]!.variant, evaluation);
        else controlEvaluations.push({ control: results.controls[index - libraries.length]!, evaluation });
      }
      for (const trajectory of results.trajectories) trajectories.set(trajectory.id, trajectory);
    }

    const ordered = [
      ...ablationVariants.map((variant) => evaluations.get(variant)!),
      ...controlEvaluations.map((c) => c.evaluation),
    ];
    const summary = summarizeEvaluation(ordered, trajectories, { seed: settings.seed });
    const rows: AblationRow[] = ablationVariants.map((variant, index) => {
      const run = variant === "none" ? null : runs[variant];
      const library = run ? libraryOf(run, settings.domain).label : "none";
      const setting =
        variant === "full"
          ? `TF-GRPO, full (G = ${settings.groupSize})`
          : variant === "no-gt"
            ? `TF-GRPO, no ground truth (G = ${settings.groupSize})`
            : variant === "direct"
              ? `direct experiences (N = ${lessons})`
              : paperAblation[variant].setting;
      return {
        variant,
        setting,
        library,
        lessons: run?.lessons ?? 0,
        runId: run?.runId ?? null,
        database: run?.database ?? null,
        evaluation: { ...summary[index]!, label: `${setting}: ${library}` },
      };
    });
    const controls: AblationRow[] = controlEvaluations.map(({ control }, index) => {
      const info = control.library.control;
      return {
        variant: "control",
        setting: control.library.label,
        library: info.of ?? info.source,
        lessons: control.snapshot.experiences.length,
        runId: full.runId,
        database: full.database,
        evaluation: { ...summary[ablationVariants.length + index]!, control: info },
      };
    });

    const evaluation: StoredEvaluation = {
      id: evaluationId,
      title: `Ablations (the paper's math table: no library, direct experiences, no ground truth, G = 1, full)${sim ? " — SIMULATED" : ""}`,
      data: path.resolve(settings.data.test),
      k: settings.k,
      rows: [...rows, ...controls].map((row) => row.evaluation),
      createdAt: new Date().toISOString(),
    };
    const store = await createStore(full.database);
    let report: string;
    try {
      await store.putRunState(full.runId, `evaluation/${evaluationId}`, evaluation);
      await store.putRunState(full.runId, "ablation/runs", {
        workspace,
        settings,
        runs: [...rows, ...controls].map(({ evaluation: _evaluation, ...row }) => row),
      });
      report = await writeReport(
        store,
        full.runId,
        path.join(workspace, "full", "reports", `${full.runId}.html`),
      );
    } finally {
      await store.close();
    }

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

/** A new workspace's settings from the options (written down), or an earlier workspace's (read back). */
async function settingsFor(workspace: string, options: AblateOptions): Promise<AblationSettings> {
  const file = path.join(workspace, "ablation.json");
  if (options.resume) {
    if (!existsSync(file))
      throw new TfgrpoError(
        "not_found",
        `--resume ${options.resume}: no ablation.json there (not an ablation workspace)`,
      );
    const parsed = safeParseJson(await readFile(file, "utf8"));
    const settings = parsed.success ? settingsSchema.safeParse(parsed.value) : null;
    if (!settings?.success)
      throw new TfgrpoError("invalid_input", `--resume ${options.resume}: ablation.json is not readable`);
    return settings.data;
  }
  if (options.groupSize < 2)
    throw new InvalidArgumentError(
      "--group-size is the full method's G and must be at least 2 (G = 1 is its own setting)",
    );
  let data: AblationSettings["data"];
  if (options.sim) {
    if (options.domain !== "math" && options.domain !== "web")
      throw new InvalidArgumentError("ablate --sim knows the domains math and web");
    data = {
      train: path.join(workspace, `${options.domain}-train.jsonl`),
      val: path.join(workspace, `${options.domain}-val.jsonl`),
      test: path.join(workspace, `${options.domain}-test.jsonl`),
    };
  } else {
    for (const [flag, value] of [
      ["--config", options.config],
      ["--train", options.train],
      ["--val", options.val],
      ["--test", options.test],
    ] as const) {
      if (!value) throw new InvalidArgumentError(`ablate needs ${flag} (or --sim)`);
    }
    data = {
      train: path.resolve(options.train!),
      val: path.resolve(options.val!),
      test: path.resolve(options.test!),
    };
  }
  const settings: AblationSettings = {
    domain: options.domain,
    simulated: Boolean(options.sim),
    config: options.config ? path.resolve(options.config) : null,
    data,
    sizes: options.sim ? { train: options.trainSize, val: options.valSize, test: options.testSize } : null,
    simFall: options.sim ? (options.simFall ?? paperSimFall) : null,
    seed: options.seed,
    epochs: options.epochs,
    groupSize: options.groupSize,
    batchSize: options.batchSize ?? null,
    k: options.k,
    mode: options.mode,
    directLessons: options.directLessons ?? null,
  };
  await writeFile(file, `${JSON.stringify(settings, null, 2)}\n`, "utf8");
  return settings;
}

/**
 * A sim policy whose chance of falling into a pitfall nothing in its prompt addresses is `fall` (with tools), every
 * other chance scaled with it (a helpful lesson still cuts it by the same factor), except a lesson pointing the wrong
 * way, which misleads a strong model as much as a weak one.
 */
function simBehaviour(fall: number, defaults: PolicyBehaviour): Partial<PolicyBehaviour> {
  const ratio = fall / defaults.fall.none;
  const scaled = (chances: FallProbabilities): FallProbabilities => ({
    none: Math.min(1, chances.none * ratio),
    helps: Math.min(1, chances.helps * ratio),
    neutral: Math.min(1, chances.neutral * ratio),
    conflict: Math.min(1, chances.conflict * ratio),
    hurts: chances.hurts,
  });
  return { fall: scaled(defaults.fall), directFall: scaled(defaults.directFall) };
}

/** The sim suites of the workspace (train, validation and test are disjoint instances of the same families). */
async function writeSimData(
  settings: AblationSettings,
  simulator: Pick<SimModule, "createSuite" | "writeSuiteJsonl">,
): Promise<void> {
  const { sizes } = settings;
  if (!sizes) return;
  for (const split of ["train", "val", "test"] as const) {
    if (existsSync(settings.data[split])) continue;
    await simulator.writeSuiteJsonl(
      settings.data[split],
      simulator.createSuite({
        domain: settings.domain as "math" | "web",
        seed: settings.seed,
        size: sizes[split],
        split,
      }),
    );
  }
}

/** The training file without its answers: the no-ground-truth run must not be able to see them anywhere. */
async function writeWithoutAnswers(source: string, target: string, domain: string): Promise<void> {
  const tasks = await loadDataset(source, { domain, requireAnswer: false });
  const lines = tasks.map(({ answer: _answer, ...task }: Task) => JSON.stringify(task));
  await writeFile(target, `${lines.join("\n")}\n`, "utf8");
}

async function storedRunStatus(database: string, runId: string): Promise<string | null> {
  if (!existsSync(database)) return null;
  const store = await createStore(database, { mustExist: true });
  try {
    return (await store.getRun(runId))?.status ?? null;
  } finally {
    await store.close();
  }
}

async function headOf(
  database: string,
  domain: string,
): Promise<{ headVersion: number | null; lessons: number }> {
  const store = await createStore(database, { mustExist: true });
  try {
    const head = await store.getHead(domain);
    return {
      headVersion: head?.version ?? null,
      lessons: head?.experiences.filter((e) => e.status !== "archived").length ?? 0,
    };
  } finally {
    await store.close();
  }
}

function libraryOf(run: VariantRun, domain: string): LibraryUnderTest {
  return run.headVersion === null
    ? { label: "none", library: null }
    : { label: `${domain}@v${run.headVersion}`, library: { domain, version: run.headVersion } };
}

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
    evaluationId,
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

export function registerAblateCommand(program: Command): void {
  program
    .command("ablate")
    .description(
      "Reproduce the paper's ablation table: full Training-Free GRPO, G = 1, no ground truth, direct experiences and no library, side by side on held-out tasks",
    )
    .addOption(simOption("run on the SIMULATED world (its model server in-process, generated task suites)"))
    .option("--config <file>", "models config (models.yaml) for real models")
    .option("--domain <domain>", "domain of the tasks and libraries", "math")
    .option("--train <file>", "training tasks (JSONL); generated with --sim")
    .option("--val <file>", "validation tasks of the acceptance gate (JSONL); generated with --sim")
    .option("--test <file>", "held-out test tasks (JSONL, with answers); generated with --sim")
    .option("--train-size <n>", "--sim: training tasks", positiveInteger, 12)
    .option("--val-size <n>", "--sim: validation tasks", positiveInteger, 12)
    .option("--test-size <n>", "--sim: held-out test tasks", positiveInteger, 24)
    .option("--dir <dir>", "where the ablation workspace goes (one database per setting)", ".tfgrpo/ablate")
    .option("--resume <workspace>", "continue an ablation workspace (finished runs are reused)")
    .option("--seed <n>", "world, sampling and evaluation seed", nonNegativeInteger, 7)
    .option("--epochs <n>", "epochs of each learning run", positiveInteger, 2)
    .option("--group-size <n>", "G of the full method (and of the no-ground-truth run)", positiveInteger, 5)
    .option("--batch-size <n>", "tasks per learning step (default: the whole training set)", positiveInteger)
    .option("--k <n>", "samples per test task (Mean@k, Pass@k)", positiveInteger, 2)
    .option("--concurrency <n>", "rollouts and role calls in flight", positiveInteger, 8)
    .addOption(
      actorModeOption(
        "actor with tools (the paper's ReAct) or direct answers (with --sim: the same pitfalls, ~20 s instead of ~3 min)",
      ),
    )
    .option(
      "--sim-fall <p>",
      `--sim: chance the policy falls into a pitfall its prompt does not address, the other chances scaled alike (default ${paperSimFall}: about the paper's model's strength; ${simOwnFall} is the sim's own weak policy)`,
      probability,
    )
    .option(
      "--no-controls",
      "leave out the placebo controls of the full run's library (keyword stubs, shuffled lessons, another domain's lessons)",
    )
    .option(
      "--direct-lessons <n>",
      "lessons of the direct-experiences setting (default: as many as the full library holds)",
      positiveInteger,
    )
    .action(async (options: AblateOptions) => {
      await ablate(options);
    });
}
