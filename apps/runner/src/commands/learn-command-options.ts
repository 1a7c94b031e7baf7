import { z } from "zod";

/**
 * The options of `tfgrpo learn`: the one schema the commander declaration (cli-commands/learn.ts, kept free of zod so
 * that `--help` stays light) is checked against, key for key (`learn-command-options.test.ts`), and that the parsed
 * options go through before the command runs. Commander has already converted numbers and checked choices; this says
 * what the command may rely on.
 */
export const learnCommandOptionsSchema = z
  .object({
    config: z.string().optional(),
    domain: z.string().optional(),
    train: z.string().optional(),
    val: z.string().optional(),
    epochs: z.number().int().positive(),
    groupSize: z.number().int().positive(),
    batchSize: z.number().int().positive().optional(),
    concurrency: z.number().int().positive(),
    nats: z.string().optional(),
    budgetUsd: z.number().positive().optional(),
    /** The circuit breaker: stop (interrupted) when more than this share of a phase's rollouts fail on the infrastructure. */
    maxInfraFailureRate: z.number().min(0).max(1).optional(),
    onConflict: z.enum(["revalidate", "stop"]).optional(),
    groundTruth: z.boolean(),
    /** false with --no-exposure: every attempt of a group sees the same entries. */
    exposure: z.boolean().optional(),
    exposureActiveShare: z.number().min(0).max(1).optional(),
    /** Attempts for a task that gave no mixed group so far (0 = G, off). */
    settledTaskAttempts: z.number().int().nonnegative().optional(),
    resume: z.string().optional(),
    runId: z.string().optional(),
    seed: z.number().int().nonnegative(),
    stratifyBy: z.string().optional(),
    failureShare: z.number().min(0).max(1).optional(),
    compactTrajectoriesAfter: z.number().int().positive().optional(),
    db: z.string().optional(),
    valK: z.number().int().positive(),
    /** The acceptance gate's rule (`--gate`). */
    gate: z.enum(["sequential", "paired-t", "paper"]).optional(),
    /** `--val-max-k`: the sequential gate's most samples per validation task. */
    valMaxK: z.number().int().positive().optional(),
    /** `--val-ahead`: the sequential gate's rounds sampled at once (default: as many as fill the concurrency). */
    valAhead: z.number().int().positive().optional(),
    precheck: z.number().int().nonnegative(),
    mode: z.enum(["tools", "direct"]),
    /** The team's agent module: it runs the rollouts instead of tfgrpo's actor. */
    agent: z.string().optional(),
    /** `--agent-price`: the team's model's prices (USD per million tokens), for --dry-run. */
    agentPrice: z.object({ input: z.number(), cachedInput: z.number(), output: z.number() }).optional(),
    baseline: z.boolean(),
    /** `--settings PATH`: the folder a preset import wrote (its `<domain>.yaml`, `<domain>.critic.yaml`) or a file. */
    settings: z.string().optional(),
    localRoles: z.string(),
    sim: z.boolean().optional(),
    /** With --sim: the sim server's injected model faults, in the form `tfgrpo sim --faults` takes. */
    simFaults: z.string().optional(),
    report: z.string().optional(),
    /** `--no-trace`: no spans, not even the run's local trace file. */
    trace: z.boolean().optional(),
    temperature: z.number().nonnegative(),
    evalTemperature: z.number().nonnegative(),
    /** The direct-experiences ablation: write this many lessons in one model call, no rollouts. */
    directExperiences: z.number().int().positive().optional(),
    /** Write every model request and response of this process's roles into this directory (a cassette). */
    record: z.string().optional(),
    /** Serve the model answers from a cassette recorded with --record: no model endpoint is contacted. */
    replay: z.string().optional(),
    /** Print the expected model calls, tokens and USD per role, and stop before any model call. */
    dryRun: z.boolean().optional(),
  })
  .strict();

export type LearnCommandOptions = z.infer<typeof learnCommandOptionsSchema>;
