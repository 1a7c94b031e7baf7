import path from "node:path";
import { type CreateSuiteOptions, createSuite, type SuiteSplit, writeSuiteJsonl } from "@tfgrpo/sim";

export interface SimSuites<S extends SuiteSplit> {
  domain: CreateSuiteOptions["domain"];
  seed: number;
  /** How many tasks each split gets. */
  sizes: Record<S, number>;
}

/**
 * Writes the sim suite's splits of one domain and seed as `<split>.jsonl` in `directory` (the data files of a
 * `learn --sim` or `eval --sim` run); returns each split's path.
 */
export async function writeSimSuites<S extends SuiteSplit>(
  directory: string,
  suites: SimSuites<S>,
): Promise<Record<S, string>> {
  const files = {} as Record<S, string>;
  for (const [split, size] of Object.entries(suites.sizes) as [S, number][]) {
    files[split] = path.join(directory, `${split}.jsonl`);
    await writeSuiteJsonl(
      files[split],
      createSuite({ domain: suites.domain, seed: suites.seed, size, split }),
    );
  }
  return files;
}
