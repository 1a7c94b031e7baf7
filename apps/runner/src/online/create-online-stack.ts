import { createEnvironmentRedactor } from "@tfgrpo/actor";
import { createCritic } from "@tfgrpo/critic";
import { createModels, loadModelsConfig, type Models, redactSecrets } from "@tfgrpo/models";
import { seededRandom, seedFrom } from "@tfgrpo/protocol";
import {
  createLibraryService,
  createOnlineLearner,
  createStoredCanaryRouter,
  type LibraryService,
  type LibraryServiceEvent,
  type OnlineConfigInput,
  type OnlineEvent,
  type OnlineLearner,
} from "@tfgrpo/serving";
import { createStore, type Store, startRetentionFromEnv } from "@tfgrpo/store";
import { createToolResources, type ToolResources, type ToolsConfig } from "@tfgrpo/tools";
import { loadActorSettings } from "../roles/actor.js";
import { reportDeadlineFromEnv } from "../runtime/report-deadline.js";
import type { ServeTask } from "./online-session.js";
import { createReactAgentServe } from "./react-agent-serve.js";
import { createOutcomeSummarizer } from "./summarize-outcome.js";

export interface OnlineStackOptions {
  /** models.yaml. */
  modelsConfig: string;
  /** Database path or URL. */
  db: string;
  domain: string;
  runId: string;
  online?: OnlineConfigInput;
  seed?: number;
  budgetUsd?: number;
  tools?: ToolsConfig;
  /** The serving agent's tools: the domain's (default) or none (it answers directly). */
  agentTools?: "domain" | "none";
  /** Known answers of the stream's tasks, for the critic's summaries. */
  groundTruth?: (task: string) => string | null;
  onEvent?: (event: OnlineEvent) => void;
  /** Every selection served and outcome stored by the library service (e.g. outcomes reported over NATS). */
  onServiceEvent?: (event: LibraryServiceEvent) => void;
  log?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  /**
   * Vary the uncertain entries per request (online credit by contrast, docs/online-learning.md); default true. Off:
   * every selected entry is shown and no entry gets a contrast.
   */
  exposure?: boolean;
}

export interface OnlineStack extends AsyncDisposable {
  store: Store;
  models: Models;
  service: LibraryService;
  /** The learner that routes this process's traffic (see `useLearner`). */
  readonly learner: OnlineLearner;
  /** A new learner with the stack's models, critic and settings (the leased learner makes one per lease taken). */
  createLearner(): OnlineLearner;
  /**
   * Routes by this learner (while it holds the domain's lease); null: by the canary the domain's learner stored, as
   * every other serving process does (`online --nats` while another process holds the lease).
   */
  useLearner(learner: OnlineLearner | null): void;
  /** The serving agent: LangGraph's createReactAgent on the actor role's ChatOpenAI. */
  serve: ServeTask;
  resources: ToolResources;
  /** Listens to the service's events (selections served, outcomes stored); returns the unsubscribe. */
  subscribe(listener: (event: LibraryServiceEvent) => void): () => void;
  close(): Promise<void>;
}

/**
 * Everything a serving-and-learning session runs on, wired once for the CLI and the tests: the store, the models of
 * a models.yaml, the library service whose router is the learner's canary draw, the online learner (critic via
 * the models, the curator over the store) and a ReAct agent that serves tasks with the served experiences.
 */
export async function createOnlineStack(options: OnlineStackOptions): Promise<OnlineStack> {
  const env = options.env ?? process.env;
  const log = options.log ?? (() => {});
  const modelsConfig = await loadModelsConfig(options.modelsConfig, { env });
  const models = createModels(modelsConfig, {
    env,
    ...(options.budgetUsd !== undefined ? { budget: { usd: options.budgetUsd } } : {}),
    logger: { warn: (message) => log(message) },
  });
  const store = await createStore(options.db);
  const critic = createCritic({ models });
  const createLearner = () =>
    createOnlineLearner({
      domain: options.domain,
      runId: options.runId,
      store,
      models,
      ...(options.online ? { config: options.online } : {}),
      seed: options.seed ?? 1,
      summarize: createOutcomeSummarizer({
        critic,
        ...(options.groundTruth ? { groundTruth: options.groundTruth } : {}),
      }),
      markConsumed: (domain, ids, reflectionId) => store.markConsumed(domain, ids, reflectionId),
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    });
  let learner = createLearner();
  let routing: OnlineLearner | null = learner;
  const storedCanary = createStoredCanaryRouter(store);
  await learner.start();
  const listeners = new Set<(event: LibraryServiceEvent) => void>();
  const settings = env.TFGRPO_ACTOR_CONFIG ? await loadActorSettings(env.TFGRPO_ACTOR_CONFIG) : {};
  const redactEnvironment = createEnvironmentRedactor(env);
  const service = createLibraryService({
    store,
    config: settings.actor ?? {},
    // The arms of each request, from the session's seed (a serial session replays them).
    ...(options.exposure === false
      ? { exposure: false as const }
      : { random: seededRandom(seedFrom(options.seed ?? 1, "exposure")) }),
    embed: (texts) => models.embed([...texts]),
    redact: (text) => redactEnvironment(redactSecrets(text)),
    ...reportDeadlineFromEnv(env),
    onEvent: (event) => {
      options.onServiceEvent?.(event);
      for (const listener of listeners) listener(event);
    },
    route: async (request) => {
      if (routing === null) return storedCanary(request);
      const routed = routing.route();
      return routed.arm === "canary" && routed.version !== null
        ? { version: routed.version, meta: { arm: "canary" } }
        : null;
    },
  });
  const resources = createToolResources(options.tools ?? settings.tools ?? {}, { env });
  const serve = createReactAgentServe({
    models,
    library: service,
    resources,
    domain: options.domain,
    runId: options.runId,
    seed: options.seed ?? 1,
    ...(options.agentTools ? { tools: options.agentTools } : {}),
  });
  const stopRetention = startRetentionFromEnv(store, env, (error) => log(`retention: ${String(error)}`));
  const close = async () => {
    await stopRetention();
    await resources.close();
    await store.close();
  };
  const subscribe = (listener: (event: LibraryServiceEvent) => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  return {
    store,
    models,
    service,
    get learner() {
      return learner;
    },
    createLearner,
    useLearner(next) {
      routing = next;
      if (next !== null) learner = next;
    },
    serve,
    resources,
    subscribe,
    close,
    [Symbol.asyncDispose]: close,
  };
}
