import { formatZodIssues, TfgrpoError } from "@tfgrpo/protocol";
import { sandboxPoolOptionsSchema } from "../code-interpreter/code-interpreter.js";
import type { ToolsConfig } from "./tools-config.js";

/**
 * Warm sandboxes an actor keeps by default: one per rollout it runs at once (rollouts of a step reach their first
 * code call together, and a sandbox started then costs the burst ≈50 ms of CPU each), at least 8 and at most 32
 * (each ready sandbox holds a Python process: ≈15 MB, ≈100 MB with sympy and numpy imported).
 */
export function defaultActorSandboxPoolSize(concurrency?: number): number {
  return Math.min(32, Math.max(8, concurrency ?? 8));
}

/**
 * The tools config an actor runs with: the warm sandbox pool on by default (`codeInterpreter.pool`, size
 * {@link defaultActorSandboxPoolSize} of the actor's concurrency, pre-imports "auto"); the environment overrides the
 * settings file:
 * - `TFGRPO_SANDBOX_POOL`: how many sandboxes to keep ready, `0` or `off` for none (every session starts its own);
 * - `TFGRPO_SANDBOX_PREIMPORT`: comma-separated modules a pooled sandbox imports (`none` for none, `auto` for those
 *   recent sessions used).
 */
export function withSandboxPool(
  config: ToolsConfig,
  env: NodeJS.ProcessEnv = process.env,
  options: { concurrency?: number } = {},
): ToolsConfig {
  const pool: Record<string, unknown> = {
    size: defaultActorSandboxPoolSize(options.concurrency),
    ...(config.codeInterpreter?.pool ?? {}),
  };
  const size = env.TFGRPO_SANDBOX_POOL?.trim();
  if (size) {
    if (size === "off") pool.size = 0;
    else if (/^\d+$/.test(size)) pool.size = Number(size);
    else
      throw new TfgrpoError(
        "invalid_config",
        `TFGRPO_SANDBOX_POOL=${size}: expected the number of warm sandboxes (0 or "off" turns the pool off)`,
        { details: { variable: "TFGRPO_SANDBOX_POOL", value: size } },
      );
  }
  const preImport = env.TFGRPO_SANDBOX_PREIMPORT?.trim();
  if (preImport) {
    pool.preImport =
      preImport === "none"
        ? []
        : preImport === "auto"
          ? "auto"
          : preImport
              .split(",")
              .map((name) => name.trim())
              .filter(Boolean);
  }
  const parsed = sandboxPoolOptionsSchema.safeParse(pool);
  if (!parsed.success) {
    const from =
      size || preImport ? "TFGRPO_SANDBOX_POOL / TFGRPO_SANDBOX_PREIMPORT" : "tools.codeInterpreter";
    throw new TfgrpoError("invalid_config", `${from}: pool.${formatZodIssues(parsed.error.issues)}`, {
      details: { field: "tools.codeInterpreter.pool" },
    });
  }
  return { ...config, codeInterpreter: { ...(config.codeInterpreter ?? {}), pool: parsed.data } };
}
