import { TfgrpoError } from "@tfgrpo/protocol";

/**
 * The models config of a worker: `--config`, else $TFGRPO_CONFIG. There is deliberately no default: a worker started
 * without one must not quietly talk to the simulated world (or to anything else it was not told about).
 */
export function requireModelsConfig(
  given: string | undefined,
  who: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const config = given || env.TFGRPO_CONFIG;
  if (!config) {
    throw new TfgrpoError(
      "invalid_config",
      `${who} needs a models config: pass --config models.yaml (or set TFGRPO_CONFIG)`,
    );
  }
  return config;
}
