import { z } from "zod";

/**
 * The options of `tfgrpo online` and of its subcommands status, pause, resume and clients: the schemas the commander
 * declarations (cli-commands/online.ts) are checked against, key for key (command-options.test.ts), and that the
 * parsed options go through before the command runs.
 */
export const onlineCommandOptionsSchema = z
  .object({
    config: z.string().optional(),
    domain: z.string().optional(),
    tasks: z.string().optional(),
    nats: z.string().optional(),
    db: z.string().optional(),
    sim: z.boolean().optional(),
    seed: z.number().int().nonnegative(),
    concurrency: z.number().int().positive(),
    budgetUsd: z.number().positive().optional(),
    online: z.string().optional(),
    reflectEvery: z.number().int().positive().optional(),
    dropBelow: z.number().min(0).max(1).optional(),
    canaryShare: z.number().min(0).max(1).optional(),
    maxOutcomes: z.number().int().positive().optional(),
    runId: z.string().optional(),
    json: z.boolean().optional(),
    /** commander's --no-tools: false when given. */
    tools: z.boolean().optional(),
    /** The domain's one learner: learns from every outcome in the store while it holds the domain's lease. */
    learner: z.boolean().optional(),
    leaseTtlMs: z.number().int().positive().optional(),
    renewEveryMs: z.number().int().positive().optional(),
    pollMs: z.number().int().positive().optional(),
    settleMs: z.number().int().nonnegative().optional(),
    /** With --learner: the learner's OpenTelemetry metrics to this JSON-lines file (or $TFGRPO_METRICS_FILE). */
    metrics: z.string().optional(),
  })
  .strict();

export type OnlineCommandOptions = z.infer<typeof onlineCommandOptionsSchema>;

/**
 * `online status | pause | resume` as declared (`--domain` required by the action, not commander: the parent has a
 * --domain too, and commander may give it to either).
 */
export const onlineControlDeclaredSchema = z
  .object({ domain: z.string().optional(), db: z.string().optional(), json: z.boolean().optional() })
  .strict();

/** What the control subcommands run with: the subcommand's and the parent's --domain, --db and --json, merged. */
export type OnlineControlOptions = z.infer<typeof onlineControlDeclaredSchema> & { domain: string };

/** `online clients` as declared. */
export const onlineClientsDeclaredSchema = onlineControlDeclaredSchema.extend({
  /** Exclude this client's outcomes from learning. */
  exclude: z.string().optional(),
  /** Include this client's outcomes again. */
  include: z.string().optional(),
  /** Why (stored with an exclusion). */
  reason: z.string().optional(),
});

/** What `online clients` runs with (merged with the parent's options like the control subcommands). */
export type OnlineClientsOptions = z.infer<typeof onlineClientsDeclaredSchema> & { domain: string };
