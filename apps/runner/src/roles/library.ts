import { createEnvironmentRedactor } from "@tfgrpo/actor";
import { createModels, loadModelsConfig, redactSecrets } from "@tfgrpo/models";
import { TfgrpoError } from "@tfgrpo/protocol";
import { createLibraryRole, createLibraryService } from "@tfgrpo/serving";
import { createStore } from "@tfgrpo/store";
import { requireModelsConfig } from "../cli-options/require-models-config.js";
import { loadActorSettings } from "./actor.js";
import { type RoleOptions, registerRole } from "./registry.js";

/**
 * `tfgrpo serve --role library --nats URL --db FILE --config models.yaml`: the library as a service for agents on
 * the Bus — `tfgrpo.library.experiences` (the actor's selection plus an exploration slot, recorded),
 * `tfgrpo.library.outcome` (stored and credited exactly once) and `tfgrpo.library.get` (whole versions). Retrieval
 * settings come from the actor's settings file (`TFGRPO_ACTOR_CONFIG`, section `actor.retrieval`); task/entry
 * similarity uses the models config's `embedder` role when it has one, utility alone otherwise.
 */
registerRole("library", async (options: RoleOptions) => {
  const db = options.db ?? process.env.TFGRPO_DB;
  if (!db) {
    throw new TfgrpoError(
      "invalid_config",
      "the library role serves the workspace's libraries and records outcomes in it: pass --db (or set TFGRPO_DB)",
      { details: { role: "library" } },
    );
  }
  const file = requireModelsConfig(options.config, "the library role");
  const env = process.env;
  const modelsConfig = await loadModelsConfig(file, { env });
  const models = createModels(modelsConfig, { env, logger: { warn: (message) => options.log(message) } });
  const settings = env.TFGRPO_ACTOR_CONFIG ? await loadActorSettings(env.TFGRPO_ACTOR_CONFIG) : {};
  const redactEnvironment = createEnvironmentRedactor(env);
  const store = await createStore(db);
  const service = createLibraryService({
    store,
    config: settings.actor ?? {},
    ...(modelsConfig.roles.embedder ? { embed: (texts: string[]) => models.embed(texts) } : {}),
    redact: (text) => redactEnvironment(redactSecrets(text)),
  });
  options.log(
    `library: libraries and outcomes in ${db}; similarity ${modelsConfig.roles.embedder ? "from the embedder" : "off (no embedder role)"}`,
  );
  return {
    ...createLibraryRole(
      service,
      store,
      options.concurrency === undefined ? {} : { concurrency: options.concurrency },
    ),
    close: () => store.close(),
  };
});
