import { z } from "zod";
import { clientGateCommandOptionsShape } from "./client-gate-command-options.js";

/**
 * The options of `tfgrpo serve`: the schema the commander declaration (cli-commands/serve.ts) is checked against, key
 * for key (command-options.test.ts), and that the parsed options go through before the command runs.
 */
export const serveCommandOptionsSchema = z
  .object({
    role: z.string(),
    /** NATS server URL(s), comma-separated; falls back to $TFGRPO_NATS_URL. */
    nats: z.string().optional(),
    concurrency: z.number().int().positive().optional(),
    /** models.yaml; falls back to $TFGRPO_CONFIG, and serve refuses to start without one. */
    config: z.string().optional(),
    db: z.string().optional(),
    /** Modules to import first, for roles registered outside apps/runner/src/roles. */
    module: z.array(z.string()).optional(),
    /** With the actor role: the team's agent module runs the rollouts (no models config needed). */
    agent: z.string().optional(),
    ...clientGateCommandOptionsShape,
  })
  .strict();

export type ServeOptions = z.infer<typeof serveCommandOptionsSchema>;
