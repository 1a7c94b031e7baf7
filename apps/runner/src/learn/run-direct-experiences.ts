import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { writeDirectExperiences } from "@tfgrpo/critic";
import { createModels, loadModelsConfig } from "@tfgrpo/models";
import {
  loadDataset,
  type Operation,
  seededRandom,
  seedFrom,
  TfgrpoError,
  type Usage,
} from "@tfgrpo/protocol";
import type { Store } from "@tfgrpo/store";
import { directExperiencesAblation } from "./direct-experiences-ablation.js";
import { type LearnOptions, learnOptionsSchema } from "./learn-options.js";
import type { LearningOutcome } from "./run-learning.js";
import { runStateKeys, runStateOf } from "./run-state.js";

/** What a run record of this ablation says besides the learn options (run.config.directExperiences). */
export interface DirectExperiencesConfig {
  /** Lessons asked for: in the paper, as many as the learned library holds. */
  lessons: number;
  /** Training questions shown to the model. */
  problems: number;
  /** The model role that writes them. */
  role: "critic" | "curator";
}

export interface RunDirectExperiencesOptions {
  store: Store;
  /** models.yaml with the writing role (default "critic"). */
  modelsConfig: string;
  /** A new run. A resumed one reads its options back from the store. */
  start?: {
    options: LearnOptions;
    data: { train: string; val?: string };
    lessons: number;
    /** Training questions shown (default: all of them, at most 40). */
    problems?: number;
    role?: "critic" | "curator";
    extraConfig?: Record<string, unknown>;
  };
  resume?: string;
  log: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  now?: () => Date;
}

export interface DirectExperiencesOutcome extends LearningOutcome {
  experiences: string[];
}

const defaultProblems = 40;

/**
 * The paper's "direct experiences" baseline as a run of its own: no rollouts, no rewards, no group comparison. One
 * model call writes N lessons from some training questions, and they become ONE committed library version (all
 * active, no gate: there is no evidence to gate on). The run record is a learn run with ablation
 * "direct-experiences", so reports and `library` commands treat its library like any other.
 */
export async function runDirectExperiences(
  options: RunDirectExperiencesOptions,
): Promise<DirectExperiencesOutcome> {
  const { store, log } = options;
  const now = options.now ?? (() => new Date());
  let learnOptions: LearnOptions;
  let settings: DirectExperiencesConfig;
  let train: string;
  if (options.resume) {
    const run = await store.getRun(options.resume);
    if (!run) throw new TfgrpoError("not_found", `--resume ${options.resume}: no such run in the store`);
    if (run.config.ablation !== directExperiencesAblation)
      throw new TfgrpoError("invalid_input", `--resume ${options.resume}: not a direct-experiences run`);
    learnOptions = learnOptionsSchema.parse(run.config.options);
    settings = run.config.directExperiences as DirectExperiencesConfig;
    train = (run.config.data as { train: string }).train;
    log(`resuming direct-experiences run ${run.id} (status ${run.status})`);
  } else if (options.start) {
    learnOptions = options.start.options;
    train = options.start.data.train;
    if (await store.getRun(learnOptions.runId))
      throw new TfgrpoError(
        "conflict",
        `run "${learnOptions.runId}" already exists: use --resume ${learnOptions.runId}`,
      );
    settings = {
      lessons: options.start.lessons,
      problems: options.start.problems ?? defaultProblems,
      role: options.start.role ?? "critic",
    };
  } else {
    throw new TfgrpoError("invalid_input", "runDirectExperiences needs either start or resume");
  }
  const { runId, domain } = learnOptions;
  // Questions only: the lessons must not come from answers the learned library never saw either.
  const tasks = await loadDataset(train, { domain, requireAnswer: false });
  const problems = sample(
    tasks.map((task) => task.question),
    settings.problems,
    seedFrom(learnOptions.seed, "direct-experiences"),
  );
  if (!options.resume) {
    await store.createRun({
      id: runId,
      kind: "learn",
      domain,
      status: "running",
      config: {
        options: learnOptions,
        data: options.start!.data,
        fingerprint: await fingerprintOf(train),
        ablation: directExperiencesAblation,
        directExperiences: { ...settings, problems: problems.length } satisfies DirectExperiencesConfig,
        ...(options.start!.extraConfig ?? {}),
      },
      startedAt: now().toISOString(),
      finishedAt: null,
    });
  } else {
    await store.updateRun(runId, { status: "running", finishedAt: null });
  }

  const runState = runStateOf(store, runId);
  try {
    let result = await runState.get(runStateKeys.directExperiences());
    if (!result) {
      // A crash between the commit and the state write must not commit the lessons twice.
      const committed = (await store.listVersions(domain)).find(
        (v) => v.runId === runId && v.state === "committed",
      );
      if (committed) {
        const snapshot = await store.getVersion(domain, committed.version);
        const created = new Set(committed.ops.filter((op) => op.op === "add").map((op) => op.text));
        result = {
          version: committed.version,
          experiences: (snapshot?.experiences ?? []).filter((e) => created.has(e.text)).map((e) => e.text),
        };
      } else {
        result = await writeAndCommit(options, learnOptions, settings, problems);
      }
      await runState.put(runStateKeys.directExperiences(), result);
    }
    await store.updateRun(runId, {
      status: "finished",
      finishedAt: now().toISOString(),
      summary: {
        headVersion: result.version,
        steps: 0,
        stoppedBy: null,
        ablation: directExperiencesAblation,
        experiences: result.experiences.length,
      },
    });
    return {
      runId,
      options: learnOptions,
      history: [],
      headVersion: result.version,
      stoppedBy: null,
      closing: null,
      experiences: result.experiences,
    };
  } catch (error) {
    await store
      .updateRun(runId, { status: "failed", summary: { error: (error as Error).message } })
      .catch(() => {});
    throw error;
  }
}

async function writeAndCommit(
  options: RunDirectExperiencesOptions,
  learnOptions: LearnOptions,
  settings: DirectExperiencesConfig,
  problems: string[],
): Promise<{ version: number; experiences: string[] }> {
  const { store, log } = options;
  const { runId, domain } = learnOptions;
  const env = options.env ?? process.env;
  const modelsConfig = await loadModelsConfig(options.modelsConfig, { env, requireRoles: [settings.role] });
  // Every call's usage (retries included) goes to the store, like the other roles' usage, even if the call fails.
  const calls: Usage[] = [];
  const models = createModels(modelsConfig, {
    env,
    logger: { warn: (message) => log(message) },
    onUsage: (usage) => calls.push(usage),
  });
  const startedAt = Date.now();
  log(
    `direct experiences: asking the ${settings.role} model for ${settings.lessons} lessons from ${problems.length} training problems (no rollouts)`,
  );
  let written: Awaited<ReturnType<typeof writeDirectExperiences>>;
  try {
    written = await writeDirectExperiences({
      models,
      domain,
      count: settings.lessons,
      problems,
      role: settings.role,
      seed: seedFrom(learnOptions.seed, "direct-experiences", "call"),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } finally {
    await store.recordUsage(
      runId,
      calls.map((usage, index) => ({ ...usage, id: `direct-experiences/${startedAt}/${index}` })),
    );
  }
  for (const item of written.dropped) log(`direct experiences: dropped "${item.text}": ${item.reason}`);
  if (written.experiences.length < settings.lessons)
    log(
      `direct experiences: the model wrote ${written.experiences.length} usable lessons of ${settings.lessons}`,
    );
  const operations: Operation[] = written.experiences.map((text) => ({
    op: "add",
    text,
    status: "active",
    reason: "written directly from training problems, without rollouts (direct-experiences ablation)",
  }));
  const head = await store.getHeadVersion(domain);
  const applied = await store.applyOperations(domain, operations, {
    parent: head,
    state: "committed",
    runId,
    message: `direct experiences: ${operations.length} lessons from ${problems.length} training problems, no rollouts`,
  });
  log(
    `direct experiences: committed ${domain}@v${applied.version.version} (${applied.createdIds.join(", ")})`,
  );
  return { version: applied.version.version, experiences: written.experiences };
}

/** Up to `count` items in a seeded order (all of them when there are fewer). */
function sample<T>(items: readonly T[], count: number, seed: number): T[] {
  const random = seededRandom(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out.slice(0, Math.max(1, count));
}

async function fingerprintOf(file: string): Promise<string> {
  return createHash("sha256")
    .update(await readFile(file))
    .digest("hex")
    .slice(0, 16);
}
