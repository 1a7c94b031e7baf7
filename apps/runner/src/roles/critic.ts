import path from "node:path";
import {
  type Critic,
  type CriticReader,
  createCritic,
  createCriticRole,
  createJudge,
  loadRewardFunction,
  type RewardFunction,
} from "@tfgrpo/critic";
import { type Cassette, createModels, loadModelsConfig, type Models } from "@tfgrpo/models";
import {
  type Bus,
  domainSchema,
  formatZodIssues,
  libraryGet,
  TfgrpoError,
  trajectoryGet,
} from "@tfgrpo/protocol";
import { z } from "zod";
import { requireModelsConfig } from "../cli-options/require-models-config.js";
import { readSettingsFile } from "./read-settings-file.js";
import type { RoleFactory, RoleOptions } from "./role-factory.js";

/** Optional settings file of the critic (`TFGRPO_CRITIC_CONFIG`, YAML or JSON). */
export const criticSettingsSchema = z.strictObject({
  judgeSamples: z
    .number()
    .int()
    .min(1)
    .max(15)
    .optional()
    .describe("Judge calls per answer; the majority decides"),
  pseudoLabelJudge: z
    .boolean()
    .optional()
    .describe("Without ground truth, let the judge grade answers against the majority label"),
  partialCredit: z.boolean().optional().describe("Math: partial credit for partly matching sets of answers"),
  rewards: z
    .record(domainSchema, z.string().min(1))
    .optional()
    .describe("Reward function module per domain (JS/TS, default export), relative to this file"),
});
export type CriticSettings = z.infer<typeof criticSettingsSchema>;

export async function loadCriticSettings(file: string): Promise<CriticSettings> {
  const value = await readSettingsFile(file, "critic");
  const parsed = criticSettingsSchema.safeParse(value ?? {});
  if (!parsed.success) {
    throw new TfgrpoError("invalid_config", `${file}: ${formatZodIssues(parsed.error.issues)}`, {
      details: { file },
    });
  }
  // Module paths are relative to the settings file, not to wherever the worker was started.
  const rewards = Object.fromEntries(
    Object.entries(parsed.data.rewards ?? {}).map(([domain, module]) => [
      domain,
      path.resolve(path.dirname(file), module),
    ]),
  );
  return { ...parsed.data, ...(parsed.data.rewards ? { rewards } : {}) };
}

export interface CriticRuntimeOptions {
  /** models.yaml: role "critic" is required, "judge" optional. */
  modelsConfig: string;
  settings?: CriticSettings;
  log: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  /** Records or replays this role's model traffic (`--record` / `--replay`). */
  cassette?: Cassette;
}

export interface CriticRuntime {
  critic: Critic;
  models: Models;
}

/**
 * A critic with its own models (role "critic", and "judge" when configured), so it can run on a different model
 * from the actor's. Used by `tfgrpo serve --role critic` and by in-process runs.
 */
export async function createCriticRuntime(options: CriticRuntimeOptions): Promise<CriticRuntime> {
  const env = options.env ?? process.env;
  const modelsConfig = await loadModelsConfig(options.modelsConfig, {
    env,
    requireRoles: ["critic"],
  });
  const models = createModels(modelsConfig, {
    env,
    logger: { warn: (message) => options.log(message) },
    ...(options.cassette ? { cassette: options.cassette } : {}),
  });
  const settings =
    options.settings ?? (env.TFGRPO_CRITIC_CONFIG ? await loadCriticSettings(env.TFGRPO_CRITIC_CONFIG) : {});
  const rewards: Record<string, RewardFunction> = {};
  for (const [domain, module] of Object.entries(settings.rewards ?? {})) {
    rewards[domain] = await loadRewardFunction(module);
  }
  const judge = modelsConfig.roles.judge
    ? createJudge({
        models,
        samples: settings.judgeSamples ?? 1,
        logger: { warn: (message) => options.log(message) },
      })
    : undefined;
  const critic = createCritic({
    models,
    ...(judge ? { judge } : {}),
    rewards,
    ...(settings.pseudoLabelJudge !== undefined ? { pseudoLabelJudge: settings.pseudoLabelJudge } : {}),
    ...(settings.partialCredit !== undefined ? { math: { partialCredit: settings.partialCredit } } : {}),
    logger: {
      warn: (message, fields) =>
        options.log(`critic: ${message}${fields ? ` ${JSON.stringify(fields)}` : ""}`),
    },
  });
  return { critic, models };
}

/**
 * The critic's reads over the Bus: trajectories and libraries from whoever owns the store (the runner serves
 * `tfgrpo.trajectory.get` and `tfgrpo.library.get`). In process it is the same Bus, so a critic reads one way
 * wherever it runs.
 */
export function createBusCriticReader(bus: Bus, options: { timeoutMs?: number } = {}): CriticReader {
  const request = { timeoutMs: options.timeoutMs ?? 30_000 };
  return {
    getTrajectories: async (ids) =>
      (await bus.request(trajectoryGet, { ids: [...ids] }, request)).trajectories,
    getLibrary: (ref) => bus.request(libraryGet, ref, request),
  };
}

/**
 * `tfgrpo serve --role critic --nats URL --config models.yaml [--concurrency N]`: answers
 * `tfgrpo.critic.reward` and `tfgrpo.critic.advantage` in a queue group, so several critic workers share the calls.
 */
/** The critic role, as `tfgrpo serve --role critic` and the runtime start it (listed in `registry.ts`). */
export const criticRole: RoleFactory = async (options: RoleOptions) => {
  const modelsConfig = requireModelsConfig(options.config, "the critic role");
  const { critic } = await createCriticRuntime({
    modelsConfig,
    ...(options.settings?.critic ? { settings: await loadCriticSettings(options.settings.critic) } : {}),
    log: options.log,
    ...(options.cassette ? { cassette: options.cassette } : {}),
  });
  options.log(`critic: models from ${modelsConfig}`);
  return {
    ...createCriticRole(
      critic,
      createBusCriticReader(options.bus),
      options.concurrency === undefined ? {} : { concurrency: options.concurrency },
    ),
    close: async () => {},
  };
};
