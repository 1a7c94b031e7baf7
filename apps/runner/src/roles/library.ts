import { createEnvironmentRedactor } from "@tfgrpo/actor";
import { createModels, loadModelsConfig, redactSecrets } from "@tfgrpo/models";
import { TfgrpoError } from "@tfgrpo/protocol";
import {
  createLibraryRole,
  createLibraryService,
  createStoredCanaryRouter,
  type LibraryService,
} from "@tfgrpo/serving";
import { createStore, type Store, startRetentionFromEnv } from "@tfgrpo/store";
import { describeClientGate } from "../cli-options/client-gate-options.js";
import { requireModelsConfig } from "../cli-options/require-models-config.js";
import { reportDeadlineFromEnv } from "../runtime/report-deadline.js";
import { loadActorSettings } from "./actor.js";
import type { RoleFactory, RoleOptions } from "./role-factory.js";

export interface OpenLibraryServiceOptions {
  /** Workspace database (path or URL); created when missing. */
  db: string;
  /** models.yaml: its `embedder` role, when it has one, gives retrieval its task/entry similarity. */
  modelsConfig?: string;
  log: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

export interface OpenedLibraryService {
  service: LibraryService;
  store: Store;
  /** "from the embedder" or why similarity is off. */
  similarity: string;
  close(): Promise<void>;
}

/**
 * The library service over a workspace database, as `serve --role library` and `tfgrpo mcp` run it: retrieval
 * settings from the actor's settings file (`TFGRPO_ACTOR_CONFIG`, section `actor.retrieval`), similarity from the
 * models config's `embedder` role when there is one (utility alone otherwise), secrets redacted from what is stored,
 * unpinned requests routed to the canary the domain's learner stored (its share of traffic).
 */
export async function openLibraryService(options: OpenLibraryServiceOptions): Promise<OpenedLibraryService> {
  const env = options.env ?? process.env;
  const modelsConfig = options.modelsConfig
    ? await loadModelsConfig(options.modelsConfig, { env })
    : undefined;
  const models = modelsConfig
    ? createModels(modelsConfig, { env, logger: { warn: (message) => options.log(message) } })
    : undefined;
  const settings = env.TFGRPO_ACTOR_CONFIG ? await loadActorSettings(env.TFGRPO_ACTOR_CONFIG) : {};
  const redactEnvironment = createEnvironmentRedactor(env);
  const store = await createStore(options.db);
  const embed = models && modelsConfig?.roles.embedder ? (texts: string[]) => models.embed(texts) : undefined;
  const service = createLibraryService({
    store,
    config: settings.actor ?? {},
    ...(embed ? { embed } : {}),
    redact: (text) => redactEnvironment(redactSecrets(text)),
    // The canary of the domain's learner (`online --learner`, wherever it runs), as it stored it.
    route: createStoredCanaryRouter(store),
    ...reportDeadlineFromEnv(env),
  });
  const similarity = embed
    ? "from the embedder"
    : modelsConfig
      ? "off (the models config has no embedder role)"
      : "off (no models config)";
  // Report deadlines and retention (TFGRPO_RETENTION; docs/online-learning.md), stopped before the store closes.
  const stopRetention = startRetentionFromEnv(store, env, (error) =>
    options.log(`retention: ${String(error)}`),
  );
  return { service, store, similarity, close: () => stopRetention().then(() => store.close()) };
}

/**
 * `tfgrpo serve --role library --nats URL --db FILE --config models.yaml`: the library as a service for agents on
 * the Bus — `tfgrpo.library.experiences` (the actor's selection plus an exploration slot, recorded),
 * `tfgrpo.library.outcome` (stored and credited exactly once) and `tfgrpo.library.get` (whole versions).
 */
/** The library role, as `tfgrpo serve --role library` and the runtime start it (listed in `registry.ts`). */
export const libraryRole: RoleFactory = async (options: RoleOptions) => {
  const db = options.db ?? process.env.TFGRPO_DB;
  if (!db) {
    throw new TfgrpoError(
      "invalid_config",
      "the library role serves the workspace's libraries and records outcomes in it: pass --db (or set TFGRPO_DB)",
      { details: { role: "library" } },
    );
  }
  const modelsConfig = requireModelsConfig(options.config, "the library role");
  const opened = await openLibraryService({ db, modelsConfig, log: options.log });
  const gate = options.clientGate ?? {};
  options.log(
    `library: libraries and outcomes in ${db}; similarity ${opened.similarity}; ${describeClientGate(gate)}`,
  );
  return {
    ...createLibraryRole(opened.service, opened.store, {
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      ...gate,
    }),
    close: opened.close,
  };
};
