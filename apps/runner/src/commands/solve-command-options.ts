import { z } from "zod";

/** The options of `tfgrpo solve` (cli-commands/solve.ts; the question is its argument), checked by command-options.test.ts. */
export const solveCommandOptionsSchema = z
  .object({
    domain: z.string().optional(),
    /** `math@head`, `math@v3`, `math@3` or `none`. */
    library: z.string(),
    config: z.string().optional(),
    db: z.string().optional(),
    /** Start the SIMULATED world in this process (model server and web corpus). */
    sim: z.boolean().optional(),
    simSeed: z.number().int().positive().optional(),
    mode: z.enum(["tools", "direct"]).optional(),
    temperature: z.number().nonnegative().optional(),
    seed: z.number().int().optional(),
    maxSteps: z.number().int().positive().optional(),
    maxToolCalls: z.number().int().positive().optional(),
    timeoutMs: z.number().int().positive().optional(),
    /** Actor settings file (limits, retrieval, domains, tools); default $TFGRPO_ACTOR_CONFIG. */
    actorConfig: z.string().optional(),
    /** Send the rollout to actor workers over NATS instead of running it here. */
    nats: z.string().optional(),
    json: z.boolean().optional(),
    showPrompt: z.boolean().optional(),
  })
  .strict();

export type SolveOptions = z.infer<typeof solveCommandOptionsSchema> & { question: string };
