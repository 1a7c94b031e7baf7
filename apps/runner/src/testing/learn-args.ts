/** The shape of a `learn` run a test or a benchmark starts. */
export interface LearnRun {
  seed: number;
  domain: string;
  train: string;
  val: string;
  epochs: number;
  groupSize: number;
  batchSize?: number;
  concurrency?: number;
  /** Full G in every epoch (`--settled-task-attempts 0`): for a test that counts epochs x tasks x G rollouts exactly. */
  fullGroups?: boolean;
  db: string;
  runId: string;
}

/** `tfgrpo learn ...` arguments for one run; the caller adds where its models are (`--sim`, `--nats`, `--config`). */
export function learnArgs(run: LearnRun): string[] {
  return [
    "learn",
    "--seed",
    String(run.seed),
    "--domain",
    run.domain,
    "--train",
    run.train,
    "--val",
    run.val,
    "--epochs",
    String(run.epochs),
    ...(run.batchSize === undefined ? [] : ["--batch-size", String(run.batchSize)]),
    "--group-size",
    String(run.groupSize),
    ...(run.concurrency === undefined ? [] : ["--concurrency", String(run.concurrency)]),
    ...(run.fullGroups ? ["--settled-task-attempts", "0"] : []),
    "--db",
    run.db,
    "--run-id",
    run.runId,
  ];
}
