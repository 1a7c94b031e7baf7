import path from "node:path";
import { type ActorConfigInput, createEnvironmentRedactor, type LibraryLoader } from "@tfgrpo/actor";
import { createModels, loadModelsConfig, redactSecrets } from "@tfgrpo/models";
import { createAgentActor } from "./create-agent-actor.js";
import { loadAgentModule } from "./load-agent-module.js";

export interface AgentActorRuntimeOptions {
  /** The agent module (`--agent FILE`, or `agent:` in the actor settings file). */
  file: string;
  library?: LibraryLoader;
  /** models.yaml, when there is one: only its embedder is used (retrieval), never an actor model. */
  modelsConfig?: string;
  /** The actor settings' limits (timeout, steps, stored tool output) and retrieval. */
  actor?: ActorConfigInput;
  env?: NodeJS.ProcessEnv;
  log: (line: string) => void;
}

/** An actor runtime whose rollouts are the team's agent's (see createAgentActor). */
export async function createAgentActorRuntime(options: AgentActorRuntimeOptions) {
  const env = options.env ?? process.env;
  const module = await loadAgentModule(options.file);
  let embed: ((texts: string[]) => Promise<number[][]>) | undefined;
  if (options.modelsConfig) {
    const config = await loadModelsConfig(options.modelsConfig, { env });
    if (config.roles.embedder) {
      const models = createModels(config, { env, logger: { warn: (message) => options.log(message) } });
      embed = (texts) => models.embed(texts);
    }
  }
  const redactEnvironment = createEnvironmentRedactor(env);
  const actor = createAgentActor({
    module,
    ...(options.library ? { library: options.library } : {}),
    ...(embed ? { embed } : {}),
    config: options.actor ?? {},
    redact: (text) => redactEnvironment(redactSecrets(text)),
  });
  options.log(
    `actor: the team's agent from ${path.relative(process.cwd(), path.resolve(options.file))} (${module.agent.kind})`,
  );
  return { actor, close: async () => {} };
}
