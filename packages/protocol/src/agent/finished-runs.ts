import type { ReportOutcomeReply } from "../schemas/served-library.js";
import type { RunOutcomeLike } from "./run-outcome.js";

/** What a served run left when it ended without an outcome: its selection and the messages it recorded. */
export interface FinishedRun {
  selectionId: string;
  shownIds: string[];
  trajectory?: unknown;
}

/** A team's outcome of a finished run: its value, or undefined for "not known yet" (reported later by run id). */
export type LaterOutcome = RunOutcomeLike | undefined;

/** How the finished runs report: `runs.finish` of the run's selection, or a bare report by id. */
export interface FinishedRunsReporter {
  finish(run: FinishedRun, outcome: RunOutcomeLike, where: string): Promise<ReportOutcomeReply | null>;
  /** A report by a run id this process holds no record of (another process, or forgotten). */
  finishUnknown(runId: string, outcome: RunOutcomeLike, where: string): Promise<ReportOutcomeReply | null>;
  /** Where a failed outcome callback or its report goes (the run has returned: nothing to throw it from). */
  onError(error: unknown, runId: string): void;
}

export interface FinishedRuns {
  /** Keeps a served run that ended without an outcome, so a later report by its id carries its messages. */
  record(run: FinishedRun): void;
  /** Reports a finished run's outcome by its run id (the selection id): with its messages when recorded here. */
  report(runId: string, outcome: RunOutcomeLike, where: string): Promise<ReportOutcomeReply | null>;
  /**
   * Records the run, then runs `compute` after it (not awaited by the run) and reports what it returns (undefined:
   * nothing for now; the run stays recorded for a report by id). An error in `compute` or its report goes to `onError`.
   */
  later(run: FinishedRun, compute: () => LaterOutcome | Promise<LaterOutcome>, where: string): void;
  /** Resolves when every outcome callback started so far has finished and its report is sent. */
  settled(): Promise<void>;
}

/** Finished runs held for a later report, at most; the oldest are forgotten first (then reported without messages). */
export const maxFinishedRuns = 1_000;

/**
 * The runs a served agent finished without an outcome, kept for the team's reward that comes after the run: an
 * `outcome` callback the middleware starts when the run ends, or a report by run id from the team's own code.
 */
export function createFinishedRuns(reporter: FinishedRunsReporter): FinishedRuns {
  const held = new Map<string, FinishedRun>();
  const pending = new Set<Promise<void>>();

  const report: FinishedRuns["report"] = (runId, outcome, where) => {
    const run = held.get(runId);
    held.delete(runId);
    return run ? reporter.finish(run, outcome, where) : reporter.finishUnknown(runId, outcome, where);
  };

  const record: FinishedRuns["record"] = (run) => {
    held.delete(run.selectionId);
    held.set(run.selectionId, run);
    while (held.size > maxFinishedRuns) held.delete(held.keys().next().value as string);
  };

  return {
    record,
    report,
    later(run, compute, where) {
      record(run);
      const work = (async () => {
        const outcome = await compute();
        if (outcome !== undefined) await report(run.selectionId, outcome, where);
      })().catch((error: unknown) => reporter.onError(error, run.selectionId));
      pending.add(work);
      void work.finally(() => pending.delete(work));
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
