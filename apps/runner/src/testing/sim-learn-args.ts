/** The shape of a `learn --sim` run a test or a benchmark starts. */
export interface SimLearnRun {
  seed: number;
  domain: string;
  train: string;
  val: string;
  epochs: number;
  groupSize: number;
  batchSize?: number;
  concurrency?: number;
  db: string;
  runId: string;
}

/** `tfgrpo learn --sim ...` arguments for one run on the simulated world. */
export function simLearnArgs(run: SimLearnRun): string[] {
  return [
    "learn",
    "--sim",
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
    "--db",
    run.db,
    "--run-id",
    run.runId,
  ];
}
