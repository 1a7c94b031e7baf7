import { type LearnRun, learnArgs } from "./learn-args.js";

/** The shape of a `learn --sim` run a test or a benchmark starts. */
export type SimLearnRun = LearnRun;

/** `tfgrpo learn --sim ...` arguments for one run on the simulated world. */
export function simLearnArgs(run: SimLearnRun): string[] {
  const [command, ...rest] = learnArgs(run);
  return [command!, "--sim", ...rest];
}
