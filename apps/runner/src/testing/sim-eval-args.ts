/** The shape of an `eval --sim --json` run a test or a benchmark starts. */
export interface SimEvalRun {
  domain: string;
  /** `domain@version` references, one row each in the order given. */
  libraries: readonly string[];
  data: string;
  k: number;
  seed: number;
  concurrency?: number;
  db: string;
}

/** `tfgrpo eval --sim ... --json --no-trace` arguments: the rows on stdout as JSON (read them with `evalJsonRows`). */
export function simEvalArgs(run: SimEvalRun): string[] {
  return [
    "eval",
    "--sim",
    "--domain",
    run.domain,
    ...run.libraries.flatMap((library) => ["--library", library]),
    "--data",
    run.data,
    "--k",
    String(run.k),
    "--seed",
    String(run.seed),
    ...(run.concurrency === undefined ? [] : ["--concurrency", String(run.concurrency)]),
    "--db",
    run.db,
    "--json",
    "--no-trace",
  ];
}
