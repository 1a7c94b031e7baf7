import { AsyncLocalStorage } from "node:async_hooks";
import { TfgrpoError } from "../errors.js";
import type {
  GetExperiencesReply,
  GetExperiencesRequest,
  ReportOutcomeReply,
  ReportOutcomeRequest,
} from "../schemas/served-library.js";
import { currentAgentAttempt } from "./agent-attempt.js";
import { createFinishedRuns, type LaterOutcome } from "./finished-runs.js";
import { type RunOutcome, type RunOutcomeLike, toRunOutcome } from "./run-outcome.js";

/** The two calls an agent middleware makes: a library service in process, over the Bus, or anything alike. */
export interface ExperienceLibrary {
  getExperiences(request: GetExperiencesRequest): Promise<GetExperiencesReply>;
  reportOutcome(request: ReportOutcomeRequest): Promise<ReportOutcomeReply>;
}

/** The options every agent middleware takes (LangChain `createAgent`, the AI SDK), besides its reward. */
export interface ExperienceRunsOptions {
  /** Optional for an agent that only learns offline (`learn --agent`): tfgrpo gives it its experiences. */
  library?: ExperienceLibrary | undefined;
  domain: string;
  /** Pin a library version (default: the head, or whatever the service routes to). */
  version?: number | undefined;
  /** Show at most this many entries. */
  k?: number | undefined;
  /** Called with the library's reply to each report (the entries credited). */
  onReport?: ((reply: ReportOutcomeReply) => void) | undefined;
  /**
   * A report that failed (library unreachable); default: the error is thrown from the agent's run, or, for an
   * outcome computed after the run (`outcome`), emitted as a process warning (`TFGRPO_OUTCOME_FAILED`).
   */
  onReportError?: ((error: unknown) => void) | undefined;
  /** A run that fails reports a failure (once); default true. */
  reportFailures?: boolean | undefined;
}

/** The experiences of one run: made once, used on every model call of the run. */
export interface RunSelection {
  /** The library's selection; null when tfgrpo runs the agent offline (the attempt is recorded, not reported). */
  selectionId: string | null;
  promptBlock: string;
  shownIds: string[];
}

export interface RunReport extends RunOutcome {
  trajectory?: unknown;
  summary?: string;
  citedIds?: string[];
}

/** A run the caller marked with `runs.run(work)`: every model call inside it shares its selection. */
export interface RunScope {
  /** The scope's selection, made by its first model call. */
  selection?: Promise<RunSelection>;
}

export interface ExperienceRuns {
  /** The run's selection: the offline attempt's when tfgrpo runs the agent, else a fresh one from the library. */
  select(task: string): Promise<RunSelection>;
  /**
   * Reports a run's outcome exactly once per selection: a second report (a failure after a success, a retry) gets
   * the first one's reply and sends nothing. Offline runs are recorded by tfgrpo, so nothing is sent (null).
   * `onReport` sees each reply; with `onReportError`, a failed report goes there instead of being thrown.
   */
  report(selection: RunSelection, report: RunReport): Promise<ReportOutcomeReply | null>;
  /** Reports a reward function's value (or the team's outcome) as the run's outcome, once. */
  finish(
    selection: RunSelection,
    outcome: RunOutcomeLike,
    where: string,
    extras?: Omit<RunReport, keyof RunOutcome>,
  ): Promise<ReportOutcomeReply | null>;
  /** Reports a run that failed with `error` (unless `reportFailures: false`, or it has been reported): once. */
  fail(selection: RunSelection, error: unknown): Promise<ReportOutcomeReply | null>;
  /** Whether the selection has been reported (or is being). */
  reported(selection: RunSelection): boolean;
  /**
   * Runs `work` as one run of the agent: the model calls inside it (however deep in awaits) share one selection, and
   * a run that throws, wherever it throws, is reported as a failure once (the error is thrown on).
   */
  run<T>(work: () => T | PromiseLike<T>): Promise<T>;
  /** The scope of the run being run by `run`, if any. */
  scope(): RunScope | undefined;
  /** Inside `run`: the scope's selection, made for `task` on first use; outside: undefined. */
  selectInScope(task: string): Promise<RunSelection> | undefined;
  /**
   * A served run that ended without an outcome: kept (the last 1,000) with its messages, so that a report by its
   * run id later (`reportById`) carries them. Offline attempts and reported runs are not kept.
   */
  recordFinished(selection: RunSelection, trajectory?: unknown): void;
  /**
   * Starts the team's outcome of a finished served run after it (not awaited by the run) and reports its value with
   * the run's messages; undefined reports nothing yet. Its errors go to `onReportError` (default: a process warning).
   */
  reportLater(
    selection: RunSelection,
    trajectory: unknown,
    compute: () => LaterOutcome | Promise<LaterOutcome>,
    where: string,
  ): void;
  /**
   * Reports a run by its run id (the selection id a served run was given), once: with the messages recorded when
   * the run ended in this process, else without them. `null` (an offline attempt's run id) sends nothing.
   */
  reportById(
    runId: string | null,
    outcome: RunOutcomeLike,
    where: string,
  ): Promise<ReportOutcomeReply | null>;
  /** Resolves when every outcome started after a run so far (`reportLater`) is computed and reported. */
  settled(): Promise<void>;
}

/** Reports remembered to refuse a second one; the oldest are forgotten beyond it (the service refuses them too). */
const maxRemembered = 10_000;

/** The run bookkeeping both agent middlewares share (LangChain `createAgent`, the AI SDK). */
export function createExperienceRuns(options: ExperienceRunsOptions): ExperienceRuns {
  const sent = new Map<string, Promise<ReportOutcomeReply>>();
  const scopes = new AsyncLocalStorage<RunScope>();

  const select = async (task: string): Promise<RunSelection> => {
    const attempt = currentAgentAttempt();
    if (attempt) {
      attempt.used = true;
      return { selectionId: null, promptBlock: attempt.promptBlock, shownIds: [...attempt.shownIds] };
    }
    if (!options.library) {
      throw new TfgrpoError(
        "invalid_config",
        "the experience middleware has no library: pass `library` (createLibraryService, createBusLibraryClient) to serve; only `tfgrpo learn/eval --agent` runs it without one",
      );
    }
    const reply = await options.library.getExperiences({
      domain: options.domain,
      task,
      ...(options.version === undefined ? {} : { version: options.version }),
      ...(options.k === undefined ? {} : { k: options.k }),
    });
    return {
      selectionId: reply.selectionId,
      promptBlock: reply.promptBlock,
      shownIds: reply.entries.map((entry) => entry.id),
    };
  };

  const send = (selectionId: string, library: ExperienceLibrary, report: RunReport) => {
    const pending = library.reportOutcome({
      selectionId,
      reward: report.reward,
      success: report.success,
      ...(report.feedback === undefined ? {} : { feedback: report.feedback.slice(0, 20_000) }),
      ...(report.trajectory === undefined ? {} : { trajectory: report.trajectory }),
      ...(report.summary === undefined ? {} : { summary: report.summary }),
      ...(report.citedIds === undefined ? {} : { citedIds: report.citedIds }),
    });
    sent.set(selectionId, pending);
    while (sent.size > maxRemembered) sent.delete(sent.keys().next().value as string);
    return pending;
  };

  const report: ExperienceRuns["report"] = async (selection, value) => {
    const { selectionId } = selection;
    if (selectionId === null || !options.library) return null;
    const earlier = sent.get(selectionId);
    try {
      if (earlier) return await earlier;
      const reply = await send(selectionId, options.library, value);
      options.onReport?.(reply);
      return reply;
    } catch (error) {
      if (!options.onReportError) throw error;
      // A second report of a failed one is not a second failure to hand on.
      if (!earlier) options.onReportError(error);
      return null;
    }
  };

  const reported = (selection: RunSelection) =>
    selection.selectionId !== null && sent.has(selection.selectionId);

  const fail: ExperienceRuns["fail"] = async (selection, error) => {
    if (options.reportFailures === false || selection.selectionId === null || reported(selection))
      return null;
    return report(selection, failureReport(error));
  };

  const finish: ExperienceRuns["finish"] = (selection, outcome, where, extras) =>
    report(selection, { ...toRunOutcome(outcome, where), ...extras });

  const finished = createFinishedRuns({
    finish: (run, outcome, where) =>
      finish(
        { selectionId: run.selectionId, promptBlock: "", shownIds: run.shownIds },
        outcome,
        where,
        run.trajectory === undefined ? {} : { trajectory: run.trajectory },
      ),
    finishUnknown: (runId, outcome, where) => {
      if (!options.library) {
        throw new TfgrpoError(
          "invalid_config",
          `${where}: run ${runId} cannot be reported, the experience middleware has no library (pass \`library\`)`,
        );
      }
      return finish({ selectionId: runId, promptBlock: "", shownIds: [] }, outcome, where);
    },
    onError: (error, runId) => {
      if (options.onReportError) options.onReportError(error);
      else {
        const message = error instanceof Error ? error.message : String(error);
        process.emitWarning(`the outcome of run ${runId} was not reported: ${message}`, {
          code: "TFGRPO_OUTCOME_FAILED",
        });
      }
    },
  });

  return {
    select,
    report,
    fail,
    reported,
    finish,
    recordFinished(selection, trajectory) {
      if (selection.selectionId === null || reported(selection)) return;
      finished.record({
        selectionId: selection.selectionId,
        shownIds: selection.shownIds,
        ...(trajectory === undefined ? {} : { trajectory }),
      });
    },
    reportLater(selection, trajectory, compute, where) {
      if (selection.selectionId === null || reported(selection)) return;
      finished.later(
        {
          selectionId: selection.selectionId,
          shownIds: selection.shownIds,
          ...(trajectory === undefined ? {} : { trajectory }),
        },
        compute,
        where,
      );
    },
    reportById: async (runId, outcome, where) =>
      runId === null ? null : finished.report(runId, outcome, where),
    settled: () => finished.settled(),
    scope: () => scopes.getStore(),
    selectInScope(task) {
      const scope = scopes.getStore();
      if (!scope) return undefined;
      scope.selection ??= select(task);
      return scope.selection;
    },
    async run(work) {
      const scope: RunScope = {};
      try {
        return await scopes.run(scope, work);
      } catch (error) {
        const selection = await scope.selection?.catch(() => undefined);
        if (selection) await fail(selection, error);
        throw error;
      }
    },
  };
}

/** The system prompt of a run: the agent's own first, then the block (a stable, cacheable prefix). */
export function withPromptBlock(systemPrompt: string, promptBlock: string): string {
  if (promptBlock === "") return systemPrompt;
  return systemPrompt === "" ? promptBlock : `${systemPrompt}\n\n${promptBlock}`;
}

/** How a failed run is reported: a failure with the error's message as feedback. */
export function failureReport(error: unknown): RunReport {
  const message = error instanceof Error ? error.message : String(error);
  return { reward: 0, success: false, feedback: `the run failed: ${message}`.slice(0, 2000) };
}
