import os from "node:os";
import { formatZodIssues, TfgrpoError } from "@tfgrpo/protocol";
import { environmentPoolSchema, type ToolsConfig } from "./tools-config.js";

/**
 * Warm environments an actor keeps per `environment: process | session` server by default: one per rollout it runs
 * at once, at least 2 and at most 16 (each waiting `tfgrpo env serve` process holds ≈100 MB; a session, little).
 */
export function defaultEnvironmentPoolSize(concurrency?: number): number {
  return Math.min(16, Math.max(2, concurrency ?? 8));
}

/**
 * The tools config an actor runs with: the warm environment pool on by default (`environmentPool`, size
 * {@link defaultEnvironmentPoolSize} of the actor's concurrency, start-ups at once = the CPUs); `TFGRPO_ENVIRONMENT_POOL`
 * (a size, `0` or `off` for none) overrides the settings file.
 */
export function withEnvironmentPool(
  config: ToolsConfig,
  env: NodeJS.ProcessEnv = process.env,
  options: { concurrency?: number } = {},
): ToolsConfig {
  const pool: Record<string, unknown> = {
    size: defaultEnvironmentPoolSize(options.concurrency),
    maxStarting: Math.max(1, os.availableParallelism()),
    ...(config.environmentPool ?? {}),
  };
  const size = env.TFGRPO_ENVIRONMENT_POOL?.trim();
  if (size) {
    if (size === "off") pool.size = 0;
    else if (/^\d+$/.test(size)) pool.size = Number(size);
    else
      throw new TfgrpoError(
        "invalid_config",
        `TFGRPO_ENVIRONMENT_POOL=${size}: expected the number of warm environments per server (0 or "off" turns the pool off)`,
        { details: { variable: "TFGRPO_ENVIRONMENT_POOL", value: size } },
      );
  }
  const parsed = environmentPoolSchema.safeParse(pool);
  if (!parsed.success) {
    throw new TfgrpoError(
      "invalid_config",
      `${size ? "TFGRPO_ENVIRONMENT_POOL" : "tools.environmentPool"}: ${formatZodIssues(parsed.error.issues)}`,
      { details: { field: "tools.environmentPool" } },
    );
  }
  return { ...config, environmentPool: parsed.data };
}
