import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { type Bus, loadDataset, TfgrpoError } from "@tfgrpo/protocol";
import type { Store } from "@tfgrpo/store";
import { directExperiencesAblation } from "./direct-experiences-ablation.js";
import { isCircuitBreakerStop } from "./infrastructure-failures.js";
import { type LearnOptions, learnOptionsSchema } from "./learn-options.js";
import { createLearningGraph, initialLearnState, type LearnContext } from "./learning-graph.js";
import { type OpenCheckpointer, openCheckpointer } from "./open-checkpointer.js";
import { type ClosingOutcome, runStateKeys, runStateOf } from "./run-state.js";
import { stepHistory } from "./step-history.js";
import type { StepRecord } from "./step-record.js";
import { openTaskPool } from "./task-pool.js";
import { describeValidationPower } from "./validation-power.js";

export interface LearnData {
  train: string;
  val: string;
}

export interface RunLearningOptions {
  bus: Bus;
  store: Store;
  /** The LangGraph checkpointer (one thread per run): a SQLite file, or the store's PostgreSQL URL. */
  checkpointPath: string;
  /** A new run: its options and data files. A resumed run reads both back from the store. */
  start?: { options: LearnOptions; data: LearnData; extraConfig?: Record<string, unknown> };
  resume?: string;
  progress: LearnContext["progress"];
  log: (line: string) => void;
  /** A stop request (the learn command's SIGTERM/SIGINT): the run stops between nodes and is left `interrupted`. */
  signal?: AbortSignal;
  now?: () => Date;
}

export interface LearningOutcome {
  runId: string;
  options: LearnOptions;
  history: StepRecord[];
  headVersion: number | null;
  stoppedBy: string | null;
  /** What the lifecycle decided after the last step (null: the run ended before it looked, as a run stored before it). */
  closing: ClosingOutcome | null;
}

/**
 * Starts or resumes a learning run. The graph's checkpoints live in SQLite or PostgreSQL, keyed by the run id, so after a crash
 * (even kill -9) `resume` continues from the last finished node; the nodes' own idempotency covers the one that was
 * interrupted.
 */
export async function runLearning(options: RunLearningOptions): Promise<LearningOutcome> {
  const { store, log } = options;
  const now = options.now ?? (() => new Date());
  let learnOptions: LearnOptions;
  let data: LearnData;
  let resuming = false;
  if (options.resume) {
    const run = await store.getRun(options.resume);
    if (!run) throw new TfgrpoError("not_found", `--resume ${options.resume}: no such run in the store`);
    if (run.kind !== "learn")
      throw new TfgrpoError("invalid_input", `--resume ${options.resume}: run is a ${run.kind} run`);
    if (run.config.ablation === directExperiencesAblation)
      throw new TfgrpoError(
        "invalid_input",
        `--resume ${options.resume}: a direct-experiences run has no learning graph (runDirectExperiences resumes it)`,
      );
    learnOptions = learnOptionsSchema.parse(run.config.options);
    data = run.config.data as LearnData;
    resuming = true;
    log(`resuming run ${run.id} (status ${run.status})`);
  } else if (options.start) {
    learnOptions = options.start.options;
    data = options.start.data;
  } else {
    throw new TfgrpoError("invalid_input", "runLearning needs either start or resume");
  }

  // The training pool is held by reference (ids, places in the file, strata): a step reads its batch's tasks back.
  const train = openTaskPool(data.train, {
    domain: learnOptions.domain,
    requireAnswer: learnOptions.groundTruth === "required",
    stratifyBy: learnOptions.stratifyBy,
  });
  // Validation answers are used whenever present; without ground truth a task may lack one (a pooled majority
  // label then scores it). Every validation task is rolled out at every gate, so they are held.
  const val = await loadDataset(data.val, {
    domain: learnOptions.domain,
    requireAnswer: learnOptions.groundTruth === "required",
  });
  const fingerprint = await datasetFingerprint([data.train, data.val]);
  const runId = learnOptions.runId;
  if (resuming) {
    const run = (await store.getRun(runId))!;
    if (run.config.fingerprint !== fingerprint) {
      throw new TfgrpoError(
        "conflict",
        `--resume ${runId}: the data files changed since the run started (${data.train}, ${data.val}); resuming would mix datasets`,
      );
    }
    await store.updateRun(runId, { status: "running", finishedAt: null });
  } else {
    if (await store.getRun(runId))
      throw new TfgrpoError("conflict", `run "${runId}" already exists: use --resume ${runId}`);
    await store.createRun({
      id: runId,
      kind: "learn",
      domain: learnOptions.domain,
      status: "running",
      config: { options: learnOptions, data, fingerprint, ...(options.start?.extraConfig ?? {}) },
      startedAt: now().toISOString(),
      finishedAt: null,
    });
  }

  // Said as the run starts, computed beside its first rollouts (a Monte Carlo in slices) instead of before them.
  const powerSaid = resuming
    ? Promise.resolve()
    : describeValidationPower(learnOptions, val).then(log, (error: unknown) =>
        log(
          `validation: what the set can detect is unknown (${error instanceof Error ? error.message : String(error)})`,
        ),
      );

  // From here on the run row exists: whatever stops the run is recorded on it (never left "running").
  let checkpointer: OpenCheckpointer | undefined;
  try {
    checkpointer = await openCheckpointer(
      options.checkpointPath,
      // Runners sharing a database take turns setting up the checkpoint tables, where the store has a shared lock.
      store.withLock ? (fn) => store.withLock?.("tfgrpo checkpoints setup", fn) ?? fn() : undefined,
    );
    const graph = createLearningGraph(
      {
        bus: options.bus,
        store,
        options: learnOptions,
        train,
        val,
        progress: options.progress,
        log,
        ...(options.signal ? { signal: options.signal } : {}),
      },
      checkpointer.saver,
    );
    const config = {
      configurable: { thread_id: runId },
      recursionLimit: 100_000,
      // What LangSmith shows for the learning graph when its tracing is on.
      runName: `tfgrpo learn ${runId}`,
      metadata: { tfgrpo_run_id: runId, tfgrpo_domain: learnOptions.domain, tfgrpo_role: "runner" },
      tags: ["tfgrpo", "learn"],
    };
    const existing = resuming ? await graph.getState(config) : null;
    const input =
      existing?.values && Object.keys(existing.values).length > 0
        ? null
        : initialLearnState(await store.getHeadVersion(learnOptions.domain));
    // The signal is not given to LangGraph, which would abandon the node in flight (a curator call could then land
    // after the run stopped): the nodes check it themselves (learning-graph.ts, untilStopped).
    const final = await graph.invoke(input, config);
    const history = await stepHistory(store, runId);
    const closing = (await runStateOf(store, runId).get(runStateKeys.closing())) ?? null;
    await store.updateRun(runId, {
      status: final.stoppedBy ? "stopped" : "finished",
      finishedAt: now().toISOString(),
      summary: {
        headVersion: final.headVersion,
        steps: history.length,
        stoppedBy: final.stoppedBy,
        ...(closing ? { closing } : {}),
      },
    });
    return {
      runId,
      options: learnOptions,
      history,
      headVersion: final.headVersion,
      stoppedBy: final.stoppedBy,
      closing,
    };
  } catch (error) {
    await recordStop(store, runId, error, now, log, options.signal?.aborted === true);
    throw error;
  } finally {
    await powerSaid;
    await checkpointer?.close();
  }
}

/**
 * How a run that stopped on an error is left: `interrupted` when it can continue as it is once the cause is gone (the
 * circuit breaker tripped on an unavailable provider; the database's disk is full or read-only; the user stopped it
 * with SIGTERM or SIGINT), `failed` with its reason otherwise: never `running`. If the store cannot even record that,
 * the run is left as it was and the log says so.
 */
async function recordStop(
  store: Store,
  runId: string,
  error: unknown,
  now: () => Date,
  log: (line: string) => void,
  stopRequested: boolean,
): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  const interrupted =
    stopRequested || isCircuitBreakerStop(error) || TfgrpoError.hasCode(error, "storage_error");
  const code = TfgrpoError.isInstance(error) ? error.code : "internal";
  try {
    await store.updateRun(runId, {
      status: interrupted ? "interrupted" : "failed",
      finishedAt: now().toISOString(),
      summary: { error: message, code, ...(interrupted ? { resume: `tfgrpo learn --resume ${runId}` } : {}) },
    });
  } catch (cause) {
    log(
      `run ${runId}: could not record its status (${cause instanceof Error ? cause.message : String(cause)}); it still reads "running" in the database`,
    );
  }
}

async function datasetFingerprint(files: string[]): Promise<string> {
  const hash = createHash("sha256");
  for (const file of files) hash.update(await readFile(file));
  return hash.digest("hex").slice(0, 16);
}
