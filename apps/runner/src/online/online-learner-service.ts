import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { createCritic } from "@tfgrpo/critic";
import { createModels, loadModelsConfig } from "@tfgrpo/models";
import {
  createOnlineLearner,
  type LeaseSettings,
  type OnlineConfigInput,
  type OnlineEvent,
  type OnlineLearner,
  type OnlineLearnerSnapshot,
  runLeasedLearner,
} from "@tfgrpo/serving";
import type { LearnerLease, Store } from "@tfgrpo/store";
import { createOutcomeSummarizer } from "./summarize-outcome.js";

export interface OnlineLearnerServiceOptions {
  store: Store;
  /** models.yaml: the critic, the curator's models and the embedder. */
  modelsConfig: string;
  domain: string;
  runId: string;
  /** The settings as read now; `reloadSettings` re-reads them between reflections. */
  settings: OnlineConfigInput;
  reloadSettings?: () => Promise<OnlineConfigInput | null>;
  seed?: number;
  budgetUsd?: number;
  lease?: Partial<LeaseSettings>;
  pollMs?: number;
  settleMs?: number;
  maxOutcomes?: number;
  signal?: AbortSignal;
  onEvent?: (event: OnlineEvent) => void;
  log: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

/**
 * `online --learner`: the domain's one learner, learning from every outcome in the store (whichever process
 * recorded it) while it holds the domain's lease; its state lives in the store, so a restart or another learner
 * taking over resumes it. A run it takes over from (still `running`: its learner died) is marked `interrupted`.
 */
export async function runOnlineLearnerService(options: OnlineLearnerServiceOptions) {
  const env = options.env ?? process.env;
  const { store, domain, runId, log } = options;
  const models = createModels(await loadModelsConfig(options.modelsConfig, { env }), {
    env,
    ...(options.budgetUsd !== undefined ? { budget: { usd: options.budgetUsd } } : {}),
    logger: { warn: (message) => log(message) },
  });
  const critic = createCritic({ models });
  const holder = `${runId}:${randomUUID().slice(0, 8)}`;
  let settings = options.settings;
  const createLearner = (): OnlineLearner =>
    createOnlineLearner({
      domain,
      runId,
      store,
      models,
      config: settings,
      seed: options.seed ?? 1,
      summarize: createOutcomeSummarizer({ critic }),
      markConsumed: (d, ids, reflectionId) => store.markConsumed(d, ids, reflectionId),
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    });
  return runLeasedLearner({
    store,
    domain,
    createLearner,
    holder,
    host: hostname(),
    pid: process.pid,
    ...(options.lease ? { lease: options.lease } : {}),
    ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
    ...(options.settleMs !== undefined ? { settleMs: options.settleMs } : {}),
    ...(options.maxOutcomes !== undefined ? { maxOutcomes: options.maxOutcomes } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.reloadSettings
      ? {
          reloadSettings: async () => {
            const next = await options.reloadSettings!();
            if (next !== null) settings = next;
            return next;
          },
        }
      : {}),
    log,
    onTakeover: (info) => markInterruptedRun(store, domain, runId, info, log),
  });
}

/**
 * A learner taking the lease over from one whose run is still `running` (it died: a clean stop finishes its run)
 * marks that run `interrupted`, naming the process that held the lease and the run that took over.
 */
export async function markInterruptedRun(
  store: Store,
  domain: string,
  runId: string,
  info: { previous: LearnerLease | null; snapshot: OnlineLearnerSnapshot | null },
  log: (line: string) => void,
): Promise<void> {
  const before = info.snapshot?.runId;
  if (!before || before === runId) return;
  const run = await store.getRun(before);
  if (run?.status !== "running") return;
  const previous = info.previous;
  await store.updateRun(before, {
    status: "interrupted",
    finishedAt: new Date().toISOString(),
    summary: {
      ...(run.summary ?? {}),
      interrupted: `its learner${previous ? ` (pid ${previous.pid} on ${previous.host})` : ""} stopped holding the lease of ${domain}; run ${runId} took over`,
    },
  });
  log(`online learner ${domain}: run ${before} marked interrupted (taken over by ${runId})`);
}
