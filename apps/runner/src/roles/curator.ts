import {
  type Curator,
  type CuratorConfigInput,
  createCurator,
  createCuratorRole,
  createHashingEmbedder,
  curatorConfigSchema,
} from "@tfgrpo/curator";
import { type Cassette, createModels, loadModelsConfig, type Models } from "@tfgrpo/models";
import { formatZodIssues, TfgrpoError } from "@tfgrpo/protocol";
import { createStore, type LibraryStore, redactUrl } from "@tfgrpo/store";
import { requireModelsConfig } from "../cli-options/require-models-config.js";
import { readSettingsFile } from "./read-settings-file.js";
import type { RoleFactory, RoleOptions } from "./role-factory.js";

/** Optional curator settings (`TFGRPO_CURATOR_CONFIG`, YAML or JSON): word limit, budgets, gate, thresholds. */
export async function loadCuratorSettings(file: string): Promise<CuratorConfigInput> {
  const value = await readSettingsFile(file, "curator");
  // The file may hold the curator settings at the top level or under `curator:`.
  const settings = (value as { curator?: unknown } | null)?.curator ?? value ?? {};
  const parsed = curatorConfigSchema.safeParse(settings);
  if (!parsed.success) {
    throw new TfgrpoError("invalid_config", `${file}: ${formatZodIssues(parsed.error.issues)}`, {
      details: { file },
    });
  }
  return settings as CuratorConfigInput;
}

export interface CuratorRuntimeOptions {
  /** Workspace database: the curator is the only writer of libraries, so it needs the store itself. */
  db: string;
  /** models.yaml. */
  modelsConfig: string;
  settings?: CuratorConfigInput;
  log: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  /** Records or replays this role's model traffic (`--record` / `--replay`). */
  cassette?: Cassette;
}

export interface CuratorRuntime {
  curator: Curator;
  models: Models;
  /** The libraries the curator writes; the runtime owns the store and closes it in `close()`. */
  store: LibraryStore;
  close(): Promise<void>;
}

/**
 * A curator with what it runs on: the store of the workspace database, the curator (and embedder) models of a
 * models.yaml, and its settings. Without an embedder role, duplicate and conflict blocking use the local hashing
 * embedding (word overlap, no semantics). Used by `tfgrpo serve --role curator`, in-process runs and
 * `tfgrpo library merge`.
 */
export async function createCuratorRuntime(options: CuratorRuntimeOptions): Promise<CuratorRuntime> {
  const env = options.env ?? process.env;
  const modelsConfig = await loadModelsConfig(options.modelsConfig, { env });
  const models = createModels(modelsConfig, {
    env,
    logger: { warn: (message) => options.log(message) },
    ...(options.cassette ? { cassette: options.cassette } : {}),
  });
  const settings =
    options.settings ??
    (env.TFGRPO_CURATOR_CONFIG ? await loadCuratorSettings(env.TFGRPO_CURATOR_CONFIG) : {});
  const hasEmbedder = modelsConfig.roles.embedder !== undefined;
  if (!hasEmbedder)
    options.log("curator: no embedder role configured; duplicates and conflicts use word overlap");
  const store = await createStore(options.db);
  const curator = createCurator({
    store,
    models,
    ...(hasEmbedder ? {} : { embed: createHashingEmbedder() }),
    config: settings,
    logger: {
      info: () => {},
      warn: (message, fields) =>
        options.log(`curator: ${message}${fields ? ` ${JSON.stringify(fields)}` : ""}`),
    },
  });
  return {
    curator,
    models,
    store,
    async close() {
      await store.close();
    },
  };
}

/**
 * `tfgrpo serve --role curator --nats URL --db FILE --config models.yaml`: consolidation, credit, lifecycle,
 * conflict checks, gate decisions and library merges (`tfgrpo.curator.*`) for the runs on the Bus.
 */
/** The curator role, as `tfgrpo serve --role curator` and the runtime start it (listed in `registry.ts`). */
export const curatorRole: RoleFactory = async (options: RoleOptions) => {
  const db = options.db ?? process.env.TFGRPO_DB;
  if (!db) {
    throw new TfgrpoError(
      "invalid_config",
      "the curator writes the experience libraries and needs the workspace database: pass --db (or set TFGRPO_DB)",
      { details: { role: "curator" } },
    );
  }
  const modelsConfig = requireModelsConfig(options.config, "the curator role");
  const runtime = await createCuratorRuntime({
    db,
    modelsConfig,
    log: options.log,
    ...(options.cassette ? { cassette: options.cassette } : {}),
  });
  options.log(`curator: models from ${modelsConfig}, libraries in ${redactUrl(db)}`);
  return {
    ...createCuratorRole(
      runtime.curator,
      options.concurrency === undefined ? {} : { concurrency: options.concurrency },
    ),
    close: runtime.close,
  };
};
