import {
  createExperienceRuns,
  currentAgentAttempt,
  type ExperienceRunsOptions,
  type LaterOutcome,
  type Message,
  type ReportOutcomeReply,
  type RunOutcomeLike,
  type RunSelection,
  TfgrpoError,
  withPromptBlock,
} from "@tfgrpo/protocol";
import { type AgentItem, itemsToMessages, taskOfItems } from "./items-to-messages.js";

/** What tfgrpo reads of an OpenAI Agents SDK `Agent` (duck-typed: the team's copy of the SDK is not tfgrpo's). */
export interface OpenAIAgentLike {
  name: string;
  modelSettings?: { providerData?: Record<string, unknown> } & Record<string, unknown>;
  clone(config: Record<string, unknown>): unknown;
}

/** The model input a `callModelInputFilter` receives and returns. */
export interface ModelInputData {
  input: AgentItem[];
  instructions?: string;
}
export type CallModelInputFilter = (args: {
  modelData: ModelInputData;
  agent: unknown;
  context: unknown;
}) => ModelInputData | Promise<ModelInputData>;

/** What tfgrpo reads of a run's result (`RunResult`, or a `StreamedRunResult` with its `completed`). */
export interface RunResultLike {
  readonly history: AgentItem[];
  readonly finalOutput?: unknown;
  readonly interruptions?: readonly unknown[];
  readonly state: object;
  readonly completed?: Promise<void>;
}

/** The SDK's `run(agent, input, options)` (or `runner.run.bind(runner)` for a configured `Runner`). */
// biome-ignore lint/suspicious/noExplicitAny: the SDK's own overloads (agent, input and options types) pass through.
export type RunFunction = (agent: any, input: any, options?: any) => Promise<RunResultLike>;

/** What a reward (or an outcome) of a run reads: the task, the final text, the run's messages and its result. */
export interface ExperienceRun {
  task: string;
  /** The final output as text (a structured output as JSON). */
  text: string;
  /** The run's history as tfgrpo messages (what is reported as its trajectory). */
  messages: Message[];
  result: RunResultLike;
  shownIds: string[];
}

export interface ExperienceRunnerOptions extends ExperienceRunsOptions {
  /** The SDK's `run` from `@openai/agents` (or `runner.run.bind(runner)`): tfgrpo runs the team's own SDK. */
  run: RunFunction;
  /** Scores a finished run; reported as the run ends. Without it, `outcome` or `reportOutcome`. */
  reward?: (run: ExperienceRun) => RunOutcomeLike | Promise<RunOutcomeLike>;
  /**
   * The team's outcome of a served run, computed after it (e.g. from its own system's state): started when the run
   * ends, not awaited by it, reported with the run's messages; undefined reports nothing yet (report later with
   * `reportOutcome(runId, outcome)`). `await experience.settled()` waits for them. Give this or `reward`.
   */
  outcome?: (run: ExperienceRun & { runId: string }) => LaterOutcome | Promise<LaterOutcome>;
}

export interface ExperienceRunner {
  /**
   * Runs `agent` on `input` as the SDK's `run` does (same options, same result), as one run of the library: one
   * selection, its block after the instructions of every model call (of every agent the run hands off to), the
   * outcome reported once. A run that throws (or a stream that fails) is reported as a failure, once.
   */
  run: RunFunction;
  /** Reports a run by hand, any time after it: by its result or its run id, and how it went; once per run. */
  reportOutcome(
    resultOrRunId: RunResultLike | string | null,
    outcome: RunOutcomeLike,
  ): Promise<ReportOutcomeReply | null>;
  /** The run id of a finished run (the library's selection id); null under `tfgrpo learn`. */
  runId(result: RunResultLike): string | null;
  /** Resolves when every streamed run's report and every `outcome` started so far is done. */
  settled(): Promise<void>;
}

/** How `tfgrpo learn --agent` tells this runner from anything else a module exports (across package copies). */
const experienceRunnerMarker = Symbol.for("tfgrpo.openai-agents.experience-runner");

/** Whether `value` is an `experienceRunner(...)` (of any copy of this package). */
export function isExperienceRunner(value: unknown): value is ExperienceRunner {
  return typeof value === "object" && value !== null && experienceRunnerMarker in value;
}

/** Whether `value` looks like an OpenAI Agents SDK `Agent` (a name, instructions, `clone` and `asTool`). */
export function isOpenAIAgent(value: unknown): value is OpenAIAgentLike {
  const candidate = value as { name?: unknown; clone?: unknown; asTool?: unknown; handoffs?: unknown } | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.name === "string" &&
    typeof candidate.clone === "function" &&
    typeof candidate.asTool === "function" &&
    Array.isArray(candidate.handoffs)
  );
}

/**
 * tfgrpo for the OpenAI Agents SDK for JavaScript (`@openai/agents`):
 *
 * ```ts
 * import { Agent, run } from "@openai/agents";
 * const experience = experienceRunner({ run, library, domain: "support", reward: (r) => isResolved(r.text) });
 * const result = await experience.run(agent, "My order never arrived"); // instead of run(agent, ...)
 * ```
 *
 * The run's experiences go into the instructions through the SDK's `callModelInputFilter` (after the team's own
 * filter, when it passes one), so every model call of the run, handoffs included, carries the same block. Under
 * `tfgrpo learn --agent` it takes each attempt's block and seed (as `modelSettings.providerData.seed`, the chat
 * completions `seed`) from tfgrpo and reports nothing.
 */
export function experienceRunner(options: ExperienceRunnerOptions): ExperienceRunner {
  if (typeof options.run !== "function") {
    throw new TfgrpoError(
      "invalid_config",
      'experienceRunner: pass the SDK\'s run as `run` (import { run } from "@openai/agents"), or runner.run.bind(runner)',
    );
  }
  if (options.reward && options.outcome) {
    throw new TfgrpoError(
      "invalid_config",
      "experienceRunner: give `reward` (scored as the run ends) or `outcome` (computed after it), not both",
    );
  }
  const runs = createExperienceRuns(options);
  /** Each finished (or paused) run's selection, by its result and by its state (a paused run resumes with it). */
  const selections = new WeakMap<object, RunSelection>();
  const streams = new Set<Promise<void>>();

  const reportError = (error: unknown) => {
    if (options.onReportError) options.onReportError(error);
    else {
      const message = error instanceof Error ? error.message : String(error);
      process.emitWarning(`a streamed run's outcome was not reported: ${message}`, {
        code: "TFGRPO_OUTCOME_FAILED",
      });
    }
  };

  const finish = async (task: string, selection: RunSelection, result: RunResultLike) => {
    selections.set(result, selection);
    selections.set(result.state, selection);
    // A run paused for a human (tool approval) goes on when resumed with its state: not over yet.
    if ((result.interruptions?.length ?? 0) > 0) return;
    if (selection.selectionId === null || runs.reported(selection)) return;
    const messages = itemsToMessages(result.history);
    const view: ExperienceRun = {
      task,
      text: finalText(result.finalOutput),
      messages,
      result,
      shownIds: selection.shownIds,
    };
    if (options.reward) {
      await runs.finish(selection, await options.reward(view), "experienceRunner's reward", {
        trajectory: messages,
      });
      return;
    }
    const { outcome } = options;
    const runId = selection.selectionId;
    if (outcome)
      runs.reportLater(selection, messages, () => outcome({ ...view, runId }), "experienceRunner's outcome");
    else runs.recordFinished(selection, messages);
  };

  const run: RunFunction = async (agent, input, runOptions = {}) => {
    const task = taskOfInput(input);
    const attempt = currentAgentAttempt();
    const resumed = typeof input === "object" && input !== null ? selections.get(input) : undefined;
    const selection = resumed ?? (await (runs.selectInScope(task) ?? runs.select(task)));
    const teamFilter = (runOptions as { callModelInputFilter?: CallModelInputFilter }).callModelInputFilter;
    const callModelInputFilter: CallModelInputFilter = async (args) => {
      const data = teamFilter ? await teamFilter(args) : args.modelData;
      const instructions = withPromptBlock(data.instructions ?? "", selection.promptBlock);
      if (attempt) attempt.systemPrompt = instructions;
      return selection.promptBlock === "" ? data : { ...data, instructions };
    };
    let result: RunResultLike;
    try {
      result = await options.run(attempt ? withSeed(agent, attempt.seed) : agent, input, {
        ...runOptions,
        callModelInputFilter,
      });
    } catch (error) {
      await runs.fail(selection, error);
      throw error;
    }
    if (result.completed) {
      const streamed = result.completed.then(
        () => finish(task, selection, result),
        async (error: unknown) => {
          await runs.fail(selection, error);
        },
      );
      const tracked = streamed.catch(reportError);
      streams.add(tracked);
      void tracked.finally(() => streams.delete(tracked));
    } else await finish(task, selection, result);
    return result;
  };

  return {
    run,
    async reportOutcome(resultOrRunId, outcome) {
      if (resultOrRunId === null || typeof resultOrRunId === "string")
        return runs.reportById(resultOrRunId, outcome, "reportOutcome");
      const selection = selections.get(resultOrRunId);
      if (!selection) {
        throw new TfgrpoError(
          "not_found",
          "experienceRunner: this result is not from a run of experience.run (or the run is still streaming)",
        );
      }
      return runs.finish(selection, outcome, "reportOutcome", {
        trajectory: itemsToMessages(resultOrRunId.history),
      });
    },
    runId(result) {
      const selection = selections.get(result);
      if (!selection) {
        throw new TfgrpoError(
          "not_found",
          "experienceRunner: this result is not from a run of experience.run (or the run is still streaming)",
        );
      }
      return selection.selectionId;
    },
    async settled() {
      while (streams.size > 0) await Promise.all([...streams]);
      await runs.settled();
    },
    [experienceRunnerMarker]: true,
  } as ExperienceRunner;
}

/** The task of a run's input: a string, input items, or a paused run's state (its history). */
function taskOfInput(input: unknown): string {
  const items =
    typeof input === "string" || Array.isArray(input)
      ? (input as string | AgentItem[])
      : ((input as { history?: AgentItem[] } | null)?.history ?? []);
  const task = taskOfItems(items);
  if (task === undefined) {
    throw new TfgrpoError(
      "invalid_input",
      "experienceRunner: the run's input has no user message to take the task from",
    );
  }
  return task;
}

/** The agent with the attempt's seed in its model settings (the chat completions `seed`). */
function withSeed(agent: OpenAIAgentLike, seed: number): unknown {
  if (typeof agent?.clone !== "function") return agent;
  const settings = agent.modelSettings ?? {};
  return agent.clone({
    modelSettings: { ...settings, providerData: { ...settings.providerData, seed } },
  });
}

function finalText(output: unknown): string {
  if (output === undefined || output === null) return "";
  return typeof output === "string" ? output : JSON.stringify(output);
}
