import type { Task } from "@tfgrpo/protocol";
import { runEvaluationRollouts } from "../evaluate-libraries.js";
import type { LearnDependencies } from "./learn-dependencies.js";
import { validationEvaluation } from "./score-on-validation.js";

/** The sequential gate's rounds, sampled ahead of its looks in batches that fill the run's concurrency. */
export interface ValidationRoundsAhead {
  /** Resolves once round `round` (attempt `round - 1` of every version on every task) is stored. */
  ready(round: number): Promise<void>;
  /**
   * After the decision: waits for the rounds already under way (their rollouts are stored: a head's are the next
   * step's first rounds, a committed candidate's too) and starts no more. Errors of those rounds are not thrown.
   */
  finish(): Promise<void>;
}

/**
 * Samples the sequential gate's validation rounds ahead of its looks, so the model is not idle while a round is read.
 * Rounds go out in batches of `ahead` (`--val-ahead`, or as many as fill `--concurrency` with the rollouts a round
 * needs: the versions whose samples are not stored yet, times the tasks), at most `maxRounds`; the next batch goes
 * out when the gate looks at the last round of the current one and does not decide. The gate still looks at the
 * rounds one by one, in order, and decides at the first that settles, so its decisions, error control and budget are
 * those of one round at a time; only the rounds of the last batch past the decision are sampled beyond need, and
 * they are kept in the store under their library, as every validation sample is (a head's are reused by the next
 * step's validation; so are a committed candidate's, the next step's head).
 */
export function validationRoundsAhead(
  deps: LearnDependencies,
  state: { step: number; statsRevision: string | null },
  tasks: readonly Task[],
  versions: readonly (number | null)[],
  maxRounds: number,
): ValidationRoundsAhead {
  const rounds = new Map<number, Promise<void>>();
  const evaluation = validationEvaluation(deps, state, tasks, versions, "validation", maxRounds);
  let batchEnd = 0;
  let finished = false;
  // One progress line for the whole validation: the rollouts of every round sent so far.
  let bar: ReturnType<LearnDependencies["progress"]> | null = null;
  const counts = new Map<number, { done: number; total: number }>();
  const report = () => {
    let done = 0;
    let total = 0;
    for (const count of counts.values()) {
      done += count.done;
      total += count.total;
    }
    bar?.update(done, total);
  };

  const start = (round: number, onDispatch?: (rollouts: number) => void) => {
    let dispatched = false;
    bar ??= deps.progress(`step ${state.step} validation`);
    const promise = runEvaluationRollouts(
      {
        ...evaluation,
        onProgress: (done, total) => {
          counts.set(round, { done, total });
          report();
          if (dispatched) return;
          dispatched = true;
          onDispatch?.(total - done);
        },
      },
      { from: round - 1, to: round },
    );
    // A round that fails is read (and its error thrown) by the look that waits on it; none is left unhandled.
    promise.catch(() => {});
    rounds.set(round, promise);
    return promise;
  };

  /** Starts the batch after `batchEnd`: its first round alone until it says how many rollouts a round needs. */
  const startBatch = async () => {
    const first = batchEnd + 1;
    const needed = await new Promise<number>((resolve) => {
      start(first, resolve).then(
        () => resolve(tasks.length * versions.length),
        () => resolve(tasks.length * versions.length),
      );
    });
    const perRound = needed > 0 ? needed : tasks.length * versions.length;
    const ahead = deps.options.valAhead ?? Math.max(1, Math.floor(deps.options.concurrency / perRound));
    batchEnd = Math.min(maxRounds, first + ahead - 1);
    for (let round = first + 1; round <= batchEnd; round++) start(round);
  };

  return {
    async ready(round) {
      while (!finished && round > batchEnd) await startBatch();
      const promise = rounds.get(round) ?? start(round);
      await promise;
    },
    async finish() {
      finished = true;
      await Promise.allSettled(rounds.values());
      bar?.done();
    },
  };
}
