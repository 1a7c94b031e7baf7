import { type Bus, parseLibraryRef, type Task, TfgrpoError, type Trajectory } from "@tfgrpo/protocol";
import type { LibraryStore, RunStore, TrajectoryStore } from "@tfgrpo/store";
import { reportsPassHat } from "../metrics/pass-hat-k.js";
import type { StoredEvaluation } from "../report/report-data.js";
import { evaluateLibraries, type LibraryUnderTest } from "./evaluate-libraries.js";
import { runStateKeys, runStateOf } from "./run-state.js";
import {
  type ControlInfo,
  type EvaluationRow,
  summarizeEvaluation,
  summarizeGroups,
} from "./summarize-evaluation.js";

/** A library to evaluate; placebo controls say what they are (their rows carry it). */
export type EvaluatedLibrary = LibraryUnderTest & { control?: ControlInfo };

/** `none`, `math@head`, `math@v3` -> the immutable version it names now (head resolved once, at the start). */
export async function resolveLibraries(
  store: LibraryStore,
  domain: string,
  refs: readonly string[],
): Promise<LibraryUnderTest[]> {
  const resolved: LibraryUnderTest[] = [];
  for (const ref of refs) {
    let parsed: ReturnType<typeof parseLibraryRef>;
    try {
      parsed = parseLibraryRef(ref);
    } catch {
      throw new TfgrpoError(
        "invalid_input",
        `--library ${ref}: library refs look like none, ${domain}@head or ${domain}@v3`,
      );
    }
    if (parsed === null) {
      resolved.push({ label: "none", library: null });
      continue;
    }
    if (parsed.domain !== domain) {
      throw new TfgrpoError("invalid_input", `--library ${ref}: the evaluation domain is "${domain}"`);
    }
    const version = parsed.version === "head" ? await store.getHeadVersion(domain) : parsed.version;
    if (version === null)
      throw new TfgrpoError("not_found", `--library ${ref}: domain "${domain}" has no committed library`);
    if (!(await store.getVersionInfo(domain, version))) {
      throw new TfgrpoError("not_found", `--library ${ref}: ${domain} has no version ${version}`);
    }
    resolved.push({ label: `${domain}@v${version}`, library: { domain, version } });
  }
  const labels = resolved.map((r) => r.label);
  const duplicate = labels.find((label, i) => labels.indexOf(label) !== i);
  if (duplicate) throw new TfgrpoError("invalid_input", `--library: ${duplicate} is given twice`);
  return resolved;
}

export interface RunEvaluationOptions {
  bus: Bus;
  store: TrajectoryStore & RunStore;
  runId: string;
  evaluationId: string;
  title: string;
  data: string | null;
  tasks: readonly Task[];
  libraries: readonly EvaluatedLibrary[];
  /** Also report Mean@k and the paired Δ per value of this task field (`resolveGroupBy`); null: no grouping. */
  groupBy?: string | null;
  k: number;
  temperature: number;
  seed: number;
  concurrency: number;
  mode?: "tools" | "direct";
  groundTruth?: "required" | "none";
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  now?: () => Date;
}

/** Evaluates libraries side by side and keeps the table in the run's state, for `eval` output and the report. */
export async function runEvaluation(options: RunEvaluationOptions): Promise<StoredEvaluation> {
  const { store, runId } = options;
  const evaluations = await evaluateLibraries({ ...options, purpose: "eval" });
  const ids = evaluations.flatMap((e) => e.tasks.flatMap((t) => t.trajectoryIds));
  const trajectories = new Map<string, Trajectory>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const t of await store.listTrajectories({ runId, ids: ids.slice(i, i + 500) }))
      trajectories.set(t.id, t);
  }
  const rows: EvaluationRow[] = summarizeEvaluation(evaluations, trajectories, {
    seed: options.seed,
    passHat: reportsPassHat(options.tasks),
  }).map((row, index) => {
    const control = options.libraries[index]?.control;
    return control ? { ...row, control } : row;
  });
  const stored: StoredEvaluation = {
    id: options.evaluationId,
    title: options.title,
    data: options.data,
    k: options.k,
    rows,
    ...(options.groupBy
      ? { groups: summarizeGroups(evaluations, options.tasks, options.groupBy, { seed: options.seed }) }
      : {}),
    createdAt: (options.now ?? (() => new Date()))().toISOString(),
  };
  await runStateOf(store, runId).put(runStateKeys.evaluation(options.evaluationId), stored);
  return stored;
}
