import { formatZodIssues, TfgrpoError } from "@tfgrpo/protocol";
import { sandboxPoolOptionsSchema } from "../code-interpreter/code-interpreter.js";
import type { ToolsConfig } from "./tools-config.js";

/** Warm sandboxes an actor keeps by default (each holds one started sandbox with sympy and numpy imported). */
export const defaultActorSandboxPoolSize = 8;

/**
 * The tools config an actor runs with: the warm sandbox pool on by default (`codeInterpreter.pool`, size
 * {@link defaultActorSandboxPoolSize}); the environment overrides the settings file:
 * - `TFGRPO_SANDBOX_POOL`: how many sandboxes to keep ready, `0` or `off` for none (every session starts its own);
 * - `TFGRPO_SANDBOX_PREIMPORT`: comma-separated modules a pooled sandbox imports (`none` for none).
 */
export function withSandboxPool(config: ToolsConfig, env: NodeJS.ProcessEnv = process.env): ToolsConfig {
  const pool: Record<string, unknown> = {
    size: defaultActorSandboxPoolSize,
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
