import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  type Actor,
  type ActorConfigInput,
  actorConfigSchema,
  createActor,
  createActorRole,
  createBusLibraryLoader,
  createEnvironmentRedactor,
  type LibraryLoader,
} from "@tfgrpo/actor";
import { type Cassette, createModels, loadModelsConfig, type Models, redactSecrets } from "@tfgrpo/models";
import { formatZodIssues, safeParseJson, TfgrpoError } from "@tfgrpo/protocol";
import { type ToolsConfig, toolsConfigSchema, withEnvironmentPool, withSandboxPool } from "@tfgrpo/tools";
import { z } from "zod";
import { createAgentActorRuntime } from "../agent/agent-actor-runtime.js";
import { requireModelsConfig } from "../cli-options/require-models-config.js";
import { createDomainToolsets } from "./domain-toolsets.js";
import { readSettingsFile } from "./read-settings-file.js";
import type { RoleFactory, RoleOptions } from "./role-factory.js";

/** Optional settings file of the actor (`TFGRPO_ACTOR_CONFIG`, YAML or JSON): limits, retrieval, domains; tools. */
const actorSettingsSchema = z.object({
  actor: actorConfigSchema.partial().optional(),
  tools: toolsConfigSchema.optional(),
  /** The team's agent module, relative to the settings file: it runs the rollouts instead of tfgrpo's actor. */
  agent: z.string().min(1).optional(),
});
export type ActorSettings = { actor?: ActorConfigInput; tools?: ToolsConfig; agent?: string };

export async function loadActorSettings(file: string): Promise<ActorSettings> {
  const value = await readSettingsFile(file, "actor");
  const parsed = actorSettingsSchema.safeParse(value ?? {});
  if (!parsed.success) {
    throw new TfgrpoError("invalid_config", `${file}: ${formatZodIssues(parsed.error.issues)}`, {
      details: { file },
    });
  }
  return relativeToFile(value as ActorSettings, path.dirname(path.resolve(file)));
}

/**
 * Paths of a settings file are read from its folder, as the critic's reward modules are: a stdio MCP server without
 * a `cwd` runs there, and tool modules and the agent module are found there.
 */
function relativeToFile(read: ActorSettings, directory: string): ActorSettings {
  const settings = read.agent === undefined ? read : { ...read, agent: path.resolve(directory, read.agent) };
  const tools = settings.tools;
  if (!tools?.servers && !tools?.modules) return settings;
  const servers = Object.fromEntries(
    Object.entries(tools.servers ?? {}).map(([name, server]) => [
      name,
      "command" in server ? { ...server, cwd: path.resolve(directory, server.cwd ?? ".") } : server,
    ]),
  );
  const modules = Object.fromEntries(
    Object.entries(tools.modules ?? {}).map(([name, module]) => [
      name,
      { ...module, path: path.resolve(directory, module.path) },
    ]),
  );
  return { ...settings, tools: { ...tools, servers, modules } };
}

export interface ActorRuntimeOptions {
  /** models.yaml. */
  modelsConfig: string;
  /** Where library versions come from. */
  library?: LibraryLoader;
  settings?: ActorSettings;
  /**
   * The sim world's corpus (`SimServer.corpusUrl`): when the tools settings name no search provider, web tools
   * search its documents locally and may fetch its pages (a loopback host). Default $TFGRPO_SIM_CORPUS_URL, else
   * the corpus of the sim server the actor model runs on, if it is one.
   */
  simCorpusUrl?: string;
  /** A directory for downloaded files (the sim corpus). */
  workDirectory?: string;
  log: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  /** Records or replays this role's model traffic (`--record` / `--replay`). */
  cassette?: Cassette;
  /** Rollouts this actor runs at once, when known: the warm sandbox pool is sized to it by default. */
  concurrency?: number;
}

export interface ActorRuntime {
  actor: Actor;
  models: Models;
  close(): Promise<void>;
}

/**
 * An actor with everything it runs on: the models of a models.yaml, a fresh toolset per rollout from shared tool
 * resources (one sandbox pool, one search index), retrieval embeddings when an embedder role is configured.
 * Used by `tfgrpo serve --role actor`, in-process runs and `tfgrpo solve`.
 */
export async function createActorRuntime(options: ActorRuntimeOptions): Promise<ActorRuntime> {
  const env = options.env ?? process.env;
  const modelsConfig = await loadModelsConfig(options.modelsConfig, { env });
  const models = createModels(modelsConfig, {
    env,
    logger: { warn: (message) => options.log(message) },
    ...(options.cassette ? { cassette: options.cassette } : {}),
  });
  const settings =
    options.settings ?? (env.TFGRPO_ACTOR_CONFIG ? await loadActorSettings(env.TFGRPO_ACTOR_CONFIG) : {});
  const tools: ToolsConfig = { ...(settings.tools ?? {}) };
  const corpusUrl =
    options.simCorpusUrl ||
    env.TFGRPO_SIM_CORPUS_URL ||
    (tools.search ? undefined : await findSimCorpus(modelsConfig.roles.actor?.baseUrl));
  if (corpusUrl && !tools.search) {
    tools.search = { provider: "local", path: await downloadSimCorpus(corpusUrl, options.workDirectory) };
    const host = new URL(corpusUrl).host;
    tools.fetch = { ...(tools.fetch ?? {}), allowHosts: [...(tools.fetch?.allowHosts ?? []), host] };
  }
  // Rollouts take warm sandboxes and warm environments from pools (on by default; TFGRPO_SANDBOX_POOL=0 or
  // tools.codeInterpreter.pool, TFGRPO_ENVIRONMENT_POOL=0 or tools.environmentPool).
  const concurrency = options.concurrency === undefined ? {} : { concurrency: options.concurrency };
  const toolsets = await createDomainToolsets({
    tools: withEnvironmentPool(withSandboxPool(tools, env, concurrency), env, concurrency),
    ...(settings.actor ? { actor: settings.actor } : {}),
    env,
  });
  const redactEnvironment = createEnvironmentRedactor(env);
  const actor = createActor({
    models,
    tools: toolsets.factory,
    ...(options.library ? { library: options.library } : {}),
    ...(modelsConfig.roles.embedder ? { embed: (texts: string[]) => models.embed(texts) } : {}),
    config: settings.actor ?? {},
    // The models package knows every key it read; the environment redactor catches the tools' keys too.
    redact: (text) => redactEnvironment(redactSecrets(text)),
    onEvent: (event) => {
      if (event.type === "retrieval-degraded")
        options.log(`actor: retrieval without similarity: ${event.reason}`);
    },
  });
  return {
    actor,
    models,
    close: toolsets.close,
  };
}

/**
 * The corpus of a sim server the actor's model runs on: the sim serves its simulated web beside its model API, so
 * `--sim` runs and `serve` workers pointed at a sim need no search settings. Only loopback servers are asked (a
 * real provider never gets a stray request), and only a server that says it is the sim counts.
 */
async function findSimCorpus(baseUrl: string | undefined): Promise<string | undefined> {
  if (!baseUrl) return undefined;
  let origin: URL;
  try {
    origin = new URL(baseUrl);
  } catch {
    return undefined;
  }
  if (!["127.0.0.1", "localhost", "[::1]"].includes(origin.hostname)) return undefined;
  const corpusUrl = `${origin.origin}/corpus`;
  try {
    const response = await fetch(corpusUrl, { signal: AbortSignal.timeout(2000) });
    const body = safeParseJson(await response.text(), z.object({ simulated: z.literal(true) }).loose());
    return response.ok && body.success ? corpusUrl : undefined;
  } catch {
    return undefined;
  }
}

/** The sim corpus as a JSONL file for the local search provider (documents keep their served URLs). */
async function downloadSimCorpus(corpusUrl: string, directory?: string): Promise<string> {
  const url = `${corpusUrl.replace(/\/$/, "")}/documents.jsonl`;
  let text: string;
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    text = await response.text();
  } catch (error) {
    throw new TfgrpoError(
      "invalid_config",
      `cannot read the sim corpus at ${url}: ${(error as Error).message}`,
      {
        details: { url },
      },
    );
  }
  const file = path.join(directory ?? os.tmpdir(), `tfgrpo-sim-corpus-${process.pid}.jsonl`);
  await writeFile(file, text);
  return file;
}

/**
 * `tfgrpo serve --role actor --nats URL --config models.yaml [--concurrency N]`: rollouts from the shared queue.
 * Libraries are read over the Bus (`tfgrpo.library.get`, served by the process that owns the database).
 */
/** The actor role, as `tfgrpo serve --role actor` and the runtime start it (listed in `registry.ts`). */
export const actorRole: RoleFactory = async (options: RoleOptions) => {
  const file = options.settings?.actor ?? process.env.TFGRPO_ACTOR_CONFIG;
  const settings = file ? await loadActorSettings(file) : undefined;
  const agent = options.agent ?? settings?.agent;
  if (agent) {
    const runtime = await createAgentActorRuntime({
      file: agent,
      library: createBusLibraryLoader(options.bus),
      ...(options.config ? { modelsConfig: options.config } : {}),
      ...(settings?.actor ? { actor: settings.actor } : {}),
      ...(settings?.tools ? { tools: settings.tools } : {}),
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      log: options.log,
    });
    return {
      ...createActorRole(
        runtime.actor,
        options.concurrency === undefined ? {} : { concurrency: options.concurrency },
      ),
      close: runtime.close,
    };
  }
  const modelsConfig = requireModelsConfig(options.config, "the actor role");
  const runtime = await createActorRuntime({
    modelsConfig,
    library: createBusLibraryLoader(options.bus),
    ...(settings ? { settings } : {}),
    log: options.log,
    ...(options.cassette ? { cassette: options.cassette } : {}),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
  });
  options.log(`actor: models from ${modelsConfig}`);
  return {
    ...createActorRole(
      runtime.actor,
      options.concurrency === undefined ? {} : { concurrency: options.concurrency },
    ),
    close: runtime.close,
  };
};
