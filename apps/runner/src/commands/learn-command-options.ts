/** The options of `tfgrpo learn`, as commander parses them (cli-commands/learn.ts declares them). */
export interface LearnCommandOptions {
  config?: string;
  domain?: string;
  train?: string;
  val?: string;
  epochs: number;
  groupSize: number;
  batchSize?: number;
  concurrency: number;
  nats?: string;
  budgetUsd?: number;
  /** The circuit breaker: stop (interrupted) when more than this share of a phase's rollouts fail on the infrastructure. */
  maxInfraFailureRate?: number;
  onConflict?: "revalidate" | "stop";
  groundTruth: boolean;
  /** false with --no-exposure: every attempt of a group sees the same entries. */
  exposure?: boolean;
  exposureActiveShare?: number;
  settledTaskAttempts?: number;
  resume?: string;
  runId?: string;
  seed: number;
  stratifyBy?: string;
  failureShare?: number;
  compactTrajectoriesAfter?: number;
  db?: string;
  valK: number;
  precheck: number;
  mode: "tools" | "direct";
  baseline: boolean;
  localRoles: string;
  sim?: boolean;
  /** With --sim: the sim server's injected model faults, in the form `tfgrpo sim --faults` takes. */
  simFaults?: string;
  report?: string;
  /** `--no-trace`: no spans, not even the run's local trace file. */
  trace?: boolean;
  temperature: number;
  evalTemperature: number;
  /** The direct-experiences ablation: write this many lessons in one model call, no rollouts. */
  directExperiences?: number;
  /** Write every model request and response of this process's roles into this directory (a cassette). */
  record?: string;
  /** Serve the model answers from a cassette recorded with --record: no model endpoint is contacted. */
  replay?: string;
  /** Print the expected model calls, tokens and USD per role, and stop before any model call. */
  dryRun?: boolean;
}
