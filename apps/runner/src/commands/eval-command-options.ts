import { z } from "zod";

/**
 * The options of `tfgrpo eval`: the schema the commander declaration (cli-commands/eval.ts) is checked against, key
 * for key (command-options.test.ts), and that the parsed options go through before the command runs.
 */
export const evalCommandOptionsSchema = z
  .object({
    domain: z.string(),
    library: z.array(z.string()),
    data: z.string(),
    k: z.number().int().positive(),
    config: z.string().optional(),
    nats: z.string().optional(),
    concurrency: z.number().int().positive(),
    seed: z.number().int().nonnegative(),
    temperature: z.number().nonnegative(),
    db: z.string().optional(),
    mode: z.enum(["tools", "direct"]),
    /** The team's agent module: it runs the rollouts instead of tfgrpo's actor. */
    agent: z.string().optional(),
    /** `--agent-price`: the team's model's prices (USD per million tokens), for --dry-run. */
    agentPrice: z.object({ input: z.number(), cachedInput: z.number(), output: z.number() }).optional(),
    localRoles: z.string(),
    /** `--settings PATH`: the folder a preset import wrote (its `<domain>.yaml`, `<domain>.critic.yaml`) or a file. */
    settings: z.string().optional(),
    sim: z.boolean().optional(),
    runId: z.string().optional(),
    /** Report Mean@k and Δ per value of this task field (default familySplit when the tasks carry it; none: off). */
    groupBy: z.string().optional(),
    /** Add placebo libraries (keyword stubs, shuffled, other domain) beside every library other than none. */
    controls: z.boolean().optional(),
    /** The other-domain control: this domain's head in the database (default: the vendored other library). */
    controlDomain: z.string().optional(),
    /** Print the evaluation as JSON instead of tables. */
    json: z.boolean().optional(),
    /** `--no-trace`: no spans, not even the run's local trace file. */
    trace: z.boolean().optional(),
    /** Also evaluate with this actor model (a `models:` entry, or a model id on the actor's provider), side by side. */
    actorModel: z.string().optional(),
    /** Print the expected model calls, tokens and USD, and call no model. */
    dryRun: z.boolean().optional(),
    /** Write every model exchange into this directory (a cassette), or answer every model call from one. */
    record: z.string().optional(),
    replay: z.string().optional(),
  })
  .strict();

export type EvalCommandOptions = z.infer<typeof evalCommandOptionsSchema>;
