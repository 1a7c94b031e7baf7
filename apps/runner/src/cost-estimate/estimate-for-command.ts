import { existsSync } from "node:fs";
import { defaultValidationSamples, sequentialValidationRounds } from "@tfgrpo/curator";
import { loadModelsConfig, type Prices } from "@tfgrpo/models";
import { loadDataset, type Task, TfgrpoError } from "@tfgrpo/protocol";
import { createStore, type Store } from "@tfgrpo/store";
import { calibrateFromStore } from "./calibrate-from-store.js";
import {
  type CostEstimate,
  defaultAssumptions,
  estimateRunCost,
  type RunShape,
} from "./estimate-run-cost.js";
import { measurePromptSizes } from "./measure-prompt-sizes.js";

export interface EstimateForCommandOptions {
  kind: "learn" | "eval";
  domain: string;
  /** learn: the training tasks; eval: the tasks evaluated. */
  tasks: string;
  val?: string;
  epochs?: number;
  groupSize?: number;
  batchSize?: number;
  valK?: number;
  /** learn: the gate's rule (`--gate`; absent: sequential, the curator's default) and `--val-max-k`. */
  gate?: "sequential" | "paired-t" | "paper";
  valMaxK?: number;
  /** eval: rollouts per task and library (k) and how many libraries. */
  k?: number;
  libraries?: number;
  mode: "tools" | "direct";
  config: string;
  /** The workspace database: its latest learn run of the domain calibrates the assumptions, when there is one. */
  db?: string;
  /** An open store instead of `db`. */
  store?: Store;
  /** Where the models config's variables are read (default process.env). */
  env?: Record<string, string | undefined>;
  /** The rollouts are the team's agent's (`--agent`), priced only with `prices` (`--agent-price`). */
  agent?: { prices?: Prices | undefined };
}

/**
 * The samples per task a sequential gate takes on `tasks` validation tasks: at least two rounds, at most its budget
 * (`sequentialValidationRounds`); expected, 45% of the budget, the mean the gate's Monte Carlo measured over effects
 * from -30 to +30 points (docs/curator.md: 109 of 240 validation rollouts at 30 tasks).
 */
function sequentialSamplesRange(tasks: number, cap: number | undefined): [number, number, number] {
  const most = sequentialValidationRounds(tasks, cap);
  return [Math.min(2, most), Math.max(1, Math.round(0.45 * most)), most];
}

/** An estimate calls nothing: key variables not set yet (a dry run before the first real one) get a placeholder. */
function withPlaceholderKeys(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return new Proxy(env, {
    get: (target, name) =>
      typeof name === "string" && target[name] === undefined && /key|token/i.test(name)
        ? "dry-run-placeholder"
        : target[name as string],
  });
}

/**
 * The `agent` option of an estimate for a command's `--agent` and `--agent-price`; `--agent-price` without `--agent`
 * is refused (it prices nothing tfgrpo runs).
 */
export function agentEstimate(
  options: { agent?: string | undefined; agentPrice?: Prices | undefined },
  command: "learn" | "eval",
): Pick<EstimateForCommandOptions, "agent"> {
  if (options.agentPrice && !options.agent) {
    throw new TfgrpoError(
      "invalid_config",
      `${command} --agent-price prices the rollouts of the team's agent: pass --agent too (tfgrpo's actor is priced from --config)`,
      { details: { field: "agent-price" } },
    );
  }
  return options.agent ? { agent: { prices: options.agentPrice } } : {};
}

/** The cost estimate of a learn or eval command, from its data files, options, models config and database. */
export async function estimateForCommand(options: EstimateForCommandOptions): Promise<CostEstimate> {
  const modelsConfig = await loadModelsConfig(options.config, {
    env: withPlaceholderKeys(options.env ?? process.env),
  });
  const tasks: Task[] = await loadDataset(options.tasks, { domain: options.domain });
  const val = options.val ? await loadDataset(options.val, { domain: options.domain }) : [];
  const groupSize = options.groupSize ?? 5;
  const prompts = measurePromptSizes(tasks, options.domain, groupSize, options.mode);
  const defaults = defaultAssumptions(options.mode, modelsConfig.roles.actor?.maxTokens);
  let assumptions = defaults;
  let startingEntries = 0;
  const dbFile = options.db?.replace(/^sqlite:(\/\/)?/, "");
  const store =
    options.store ??
    (dbFile && existsSync(dbFile) ? await createStore(options.db as string, { mustExist: true }) : undefined);
  try {
    if (store) {
      assumptions = await calibrateFromStore(store, options.domain, prompts, defaults);
      startingEntries = (await store.getHead(options.domain))?.experiences.length ?? 0;
    }
  } finally {
    if (store && !options.store) await store.close();
  }
  const shape: RunShape =
    options.kind === "learn"
      ? {
          kind: "learn",
          trainSize: tasks.length,
          valSize: val.length,
          epochs: options.epochs ?? 3,
          groupSize,
          ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
          valK: options.valK ?? defaultValidationSamples,
          ...((options.gate ?? "sequential") === "sequential"
            ? { candidateValidationSamples: sequentialSamplesRange(val.length, options.valMaxK) }
            : {}),
          mode: options.mode,
          startingEntries,
        }
      : {
          kind: "eval",
          trainSize: 0,
          valSize: tasks.length,
          epochs: 0,
          groupSize: 1,
          valK: options.k ?? 1,
          mode: options.mode,
          evalRollouts: tasks.length * (options.k ?? 1) * (options.libraries ?? 1),
        };
  return estimateRunCost(shape, prompts, assumptions, modelsConfig, {
    ...(options.agent ? { agent: options.agent } : {}),
  });
}
