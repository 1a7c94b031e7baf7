import path from "node:path";
import { type ActorConfigInput, createEnvironmentRedactor, type LibraryLoader } from "@tfgrpo/actor";
import { createModels, loadModelsConfig, redactSecrets } from "@tfgrpo/models";
import { type ToolsConfig, withEnvironmentPool, withSandboxPool } from "@tfgrpo/tools";
import { createDomainToolsets, type DomainToolsets } from "../roles/domain-toolsets.js";
import { createAgentActor } from "./create-agent-actor.js";
import { loadAgentModule } from "./load-agent-module.js";

export interface AgentActorRuntimeOptions {
  /** The agent module (`--agent FILE`, or `agent:` in the actor settings file). */
  file: string;
  library?: LibraryLoader;
  /**
   * models.yaml, when there is one: its embedder (retrieval) and its `user` role (conversational tasks), never an
   * actor model.
   */
  modelsConfig?: string;
  /** The actor settings' limits (timeout, steps, stored tool output), retrieval and domains (their tools). */
  actor?: ActorConfigInput;
  /** The actor settings' tools: the MCP servers and tool modules whose environment each attempt gets. */
  tools?: ToolsConfig;
  /** Rollouts at once: the size of the warm sandbox and environment pools. */
  concurrency?: number;
  env?: NodeJS.ProcessEnv;
  log: (line: string) => void;
}

/** An actor runtime whose rollouts are the team's agent's (see createAgentActor). */
export async function createAgentActorRuntime(options: AgentActorRuntimeOptions) {
  const env = options.env ?? process.env;
  const concurrency = options.concurrency === undefined ? {} : { concurrency: options.concurrency };
  const module = await loadAgentModule(options.file);
  let embed: ((texts: string[]) => Promise<number[][]>) | undefined;
  let userModel: Parameters<typeof createAgentActor>[0]["userModel"];
  if (options.modelsConfig) {
    const config = await loadModelsConfig(options.modelsConfig, { env });
    const models = createModels(config, { env, logger: { warn: (message) => options.log(message) } });
    if (config.roles.embedder) embed = (texts) => models.embed(texts);
    if (config.roles.user) userModel = (settings) => models.chat("user", settings);
  }
  const toolsets: DomainToolsets | undefined = options.tools
    ? await createDomainToolsets({
        // Warm sandboxes and environments, as for tfgrpo's actor (TFGRPO_SANDBOX_POOL=0, TFGRPO_ENVIRONMENT_POOL=0).
        tools: withEnvironmentPool(withSandboxPool(options.tools, env, concurrency), env, concurrency),
        ...(options.actor ? { actor: options.actor } : {}),
        env,
      })
    : undefined;
  const redactEnvironment = createEnvironmentRedactor(env);
  const actor = createAgentActor({
    module,
    ...(options.library ? { library: options.library } : {}),
    ...(embed ? { embed } : {}),
    ...(toolsets ? { tools: toolsets.factory } : {}),
    ...(userModel ? { userModel } : {}),
    config: options.actor ?? {},
    redact: (text) => redactEnvironment(redactSecrets(text)),
  });
  options.log(
    `actor: the team's agent from ${path.relative(process.cwd(), path.resolve(options.file))} (${module.agent.kind})`,
  );
  return { actor, close: async () => toolsets?.close() };
}
