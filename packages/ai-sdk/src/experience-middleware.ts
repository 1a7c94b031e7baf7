import {
  createExperienceRuns,
  currentAgentAttempt,
  type ExperienceRunsOptions,
  type LaterOutcome,
  type ReportOutcomeReply,
  type RunOutcomeLike,
  type RunSelection,
  TfgrpoError,
  withPromptBlock,
} from "@tfgrpo/protocol";
import type { LanguageModelMiddleware, ModelMessage, StepResult, ToolSet } from "ai";
import { type CallOptions, createOpenRuns, type OpenRun, type Prompt } from "./open-runs.js";

/** What a reward function of a run reads: the task, the final text and the steps (tool calls and results). */
export interface ExperienceRun {
  task: string;
  text: string;
  steps: ReadonlyArray<StepResult<ToolSet>>;
  shownIds: string[];
}

/** The part of `generateText`'s result (or `onFinish`'s event) the middleware reads. */
export interface FinishedRun<TOOLS extends ToolSet = ToolSet> {
  text: string;
  steps: ReadonlyArray<StepResult<TOOLS>>;
  response: { messages: ModelMessage[] };
}

/**
 * `library`: `createLibraryService({ store })`, `createBusLibraryClient(bus)`, or anything with these two calls.
 * `reportFailures` (default true): a run whose model call fails for good reports a failure, once.
 */
export interface ExperienceMiddlewareOptions extends ExperienceRunsOptions {
  /** Scores a finished run; `onFinish` reports it. Without it, call `reportOutcome(result, outcome)`. */
  reward?: (run: ExperienceRun) => RunOutcomeLike | Promise<RunOutcomeLike>;
  /**
   * The team's outcome of a served run, computed after it (e.g. from its own system's state): `onFinish` starts it
   * without waiting for it and reports it with the run's messages; undefined reports nothing yet (report later with
   * `reportOutcome(runId, outcome)`). `await experience.settled()` waits for them. Give this or `reward`.
   */
  outcome?: (run: ExperienceRun & { runId: string }) => LaterOutcome | Promise<LaterOutcome>;
  /**
   * The `maxRetries` the AI SDK is given (default 2, its own default). It retries a retryable error inside this
   * middleware, so the run has failed for good after this many retries + 1 retryable failures in a row (or one
   * error it does not retry).
   */
  maxRetries?: number;
}

/** The middleware, with the two calls that report a run. */
export type ExperienceMiddleware = LanguageModelMiddleware & {
  /** Pass as `onFinish` of `ToolLoopAgent`, `generateText` or `streamText`: reports the run with `reward`. */
  onFinish<TOOLS extends ToolSet>(event: FinishedRun<TOOLS>): Promise<void>;
  /**
   * Reports a run by hand (no `reward`), any time after it: by `generateText`'s result or by its run id
   * (`runId(result)`), and how it went; once per run. An offline attempt's run id (null) sends nothing.
   */
  reportOutcome<TOOLS extends ToolSet>(
    resultOrRunId: FinishedRun<TOOLS> | string | null,
    outcome: RunOutcomeLike,
  ): Promise<ReportOutcomeReply | null>;
  /**
   * The run id of a run (from its result): the library's selection id, to report its outcome with later
   * (`reportOutcome(runId, ...)`, or `report_outcome`'s `selectionId` from anywhere); null under `tfgrpo learn`.
   */
  runId<TOOLS extends ToolSet>(result: FinishedRun<TOOLS>): string | null;
  /** Resolves when every `outcome` started after a run so far has been computed and reported. */
  settled(): Promise<void>;
  /**
   * Runs `work` (one `generate`, or a stream consumed to its end) as one run: its model calls share a selection,
   * and an error that ends it, wherever it is thrown, is reported as a failure once; then thrown on.
   */
  run<T>(work: () => T | PromiseLike<T>): Promise<T>;
};

/** Where the middleware leaves a run's selection on each model result, for `onFinish` to find. */
const metadataKey = "tfgrpo";
/** Runs in flight at most; the oldest are forgotten beyond it (a run never finished). */
const maxOpenRuns = 10_000;

/**
 * tfgrpo for the Vercel AI SDK (ai@6):
 *
 * ```ts
 * const experience = experienceMiddleware({ library, domain: "math", reward: (run) => isRight(run.text) });
 * const agent = new ToolLoopAgent({
 *   model: wrapLanguageModel({ model: openai("gpt-4.1-mini"), middleware: experience }),
 *   tools, instructions, onFinish: experience.onFinish,
 * });
 * ```
 *
 * The first model call of a run (its first user message is the task) selects the experiences; every call of the run
 * (its steps, their retries) gets the same block after its system prompt; `onFinish` reports the run's outcome with
 * its messages. Each `generate`/`stream` is a run of its own, however many run the same task at once: list the
 * middleware first, so the prompts it sees are the AI SDK's. `experience.run(() => agent.generate(...))` makes the
 * run explicit and reports one that throws anywhere (not only in a model call) as a failure, once. A reward known
 * only after the run: `outcome` (started at `onFinish`, not awaited), or `reportOutcome(runId(result), outcome)`.
 * Under `tfgrpo learn --agent` it takes the attempt's block and seed from tfgrpo and reports nothing.
 */
export function experienceMiddleware(options: ExperienceMiddlewareOptions): ExperienceMiddleware {
  if (options.reward && options.outcome) {
    throw new TfgrpoError(
      "invalid_config",
      "experienceMiddleware: give `reward` (scored as the run ends) or `outcome` (computed after it), not both",
    );
  }
  const runs = createExperienceRuns(options);
  const open = createOpenRuns(maxOpenRuns);
  /** The run of each call, by the params this middleware handed on (the same object reaches wrapGenerate). */
  const runOfCall = new WeakMap<CallOptions, OpenRun>();
  const taskOf = (params: CallOptions) => {
    const task = firstUserText(params.prompt);
    if (task === undefined) {
      throw new TfgrpoError(
        "invalid_input",
        "experienceMiddleware: the prompt has no user message to take the task from",
      );
    }
    return task;
  };
  const withSelection = async (params: CallOptions): Promise<CallOptions> => {
    const attempt = currentAgentAttempt();
    if (attempt) {
      const selection = await runs.select("");
      const prompt = addBlock(params.prompt, selection.promptBlock);
      attempt.systemPrompt = prompt[0]?.role === "system" ? prompt[0].content : "";
      return { ...params, prompt, seed: attempt.seed };
    }
    const task = taskOf(params);
    const run = open.runFor(
      params.prompt,
      task,
      runs.scope(),
      () => runs.selectInScope(task) ?? runs.select(task),
    );
    const selection = await run.selection;
    const next = { ...params, prompt: addBlock(params.prompt, selection.promptBlock) };
    runOfCall.set(next, run);
    return next;
  };
  const onError = async (params: CallOptions, error: unknown) => {
    // A call outside any run (offline, or a prompt without a task) has nothing to report: the model's error goes on.
    const run = runOfCall.get(params);
    if (!run || open.get(run.key) !== run) return;
    if ((error as { isRetryable?: boolean }).isRetryable === true) {
      run.failures++;
      if (run.failures <= (options.maxRetries ?? 2)) return;
    }
    open.close(run.key);
    await runs.fail(await run.selection, error);
  };
  const metadataFor = async (params: CallOptions) => {
    const run = runOfCall.get(params);
    if (!run) return { offline: true };
    run.failures = 0;
    const selection = await run.selection;
    return { run: run.key, task: run.task, selectionId: selection.selectionId, shownIds: selection.shownIds };
  };
  const sawToolCall = (params: CallOptions, part: { type: string; toolCallId?: string }) => {
    const run = runOfCall.get(params);
    if (run && part.type === "tool-call" && part.toolCallId) open.sawToolCall(run, part.toolCallId);
  };

  const middleware: LanguageModelMiddleware = {
    specificationVersion: "v3",
    transformParams: ({ params }) => withSelection(params),
    wrapGenerate: async ({ doGenerate, params }) => {
      try {
        const result = await doGenerate();
        for (const part of result.content) sawToolCall(params, part);
        const metadata = await metadataFor(params);
        return { ...result, providerMetadata: { ...result.providerMetadata, [metadataKey]: metadata } };
      } catch (error) {
        await onError(params, error);
        throw error;
      }
    },
    wrapStream: async ({ doStream, params }) => {
      let result: Awaited<ReturnType<typeof doStream>>;
      try {
        result = await doStream();
      } catch (error) {
        await onError(params, error);
        throw error;
      }
      const metadata = await metadataFor(params);
      const stream = result.stream.pipeThrough(
        new TransformStream({
          transform(part, controller) {
            sawToolCall(params, part as { type: string; toolCallId?: string });
            if (part.type === "finish") {
              controller.enqueue({
                ...part,
                providerMetadata: { ...part.providerMetadata, [metadataKey]: metadata },
              });
            } else controller.enqueue(part);
          },
        }),
      );
      return { ...result, stream };
    },
  };

  const reportRun = async (run: FinishedRun, outcome: RunOutcomeLike | undefined, where: string) => {
    const found = selectionOfRun(run);
    if (!found) return null;
    const { run: key, task, selection } = found;
    // The run is over either way (a report by hand still can come).
    open.close(key);
    const view = { task, text: run.text, steps: run.steps, shownIds: selection.shownIds };
    const trajectory = [{ role: "user", content: task }, ...run.response.messages];
    const value = outcome ?? (options.reward ? await options.reward(view) : undefined);
    if (value !== undefined) return runs.finish(selection, value, where, { trajectory });
    const later = options.outcome;
    const runId = selection.selectionId;
    if (later && runId !== null) {
      runs.reportLater(
        selection,
        trajectory,
        () => later({ ...view, runId }),
        "experienceMiddleware's outcome",
      );
    } else runs.recordFinished(selection, trajectory);
    return null;
  };

  return Object.assign(middleware, {
    // Generic in the agent's tools, so a typed ToolLoopAgent takes it as its onFinish; read as any tool set's.
    onFinish: async <TOOLS extends ToolSet>(event: FinishedRun<TOOLS>) => {
      await reportRun(event as unknown as FinishedRun, undefined, "experienceMiddleware's reward");
    },
    reportOutcome: async <TOOLS extends ToolSet>(
      resultOrRunId: FinishedRun<TOOLS> | string | null,
      outcome: RunOutcomeLike,
    ) => {
      if (resultOrRunId === null || typeof resultOrRunId === "string")
        return runs.reportById(resultOrRunId, outcome, "reportOutcome");
      const result = resultOrRunId;
      const reply = await reportRun(result as unknown as FinishedRun, outcome, "reportOutcome");
      if (reply === null && !currentAgentAttempt() && !selectionOfRun(result as unknown as FinishedRun)) {
        throw new TfgrpoError(
          "not_found",
          "experienceMiddleware: this result is not from a model wrapped with the middleware",
        );
      }
      return reply;
    },
    runId: <TOOLS extends ToolSet>(result: FinishedRun<TOOLS>) => {
      const found = selectionOfRun(result as unknown as FinishedRun);
      if (found) return found.selection.selectionId;
      if (currentAgentAttempt()) return null;
      throw new TfgrpoError(
        "not_found",
        "experienceMiddleware: this result is not from a model wrapped with the middleware",
      );
    },
    settled: () => runs.settled(),
    run: <T>(work: () => T | PromiseLike<T>) => runs.run(work),
  });
}

function selectionOfRun(
  run: FinishedRun,
): { run: string; task: string; selection: RunSelection } | undefined {
  for (const step of run.steps) {
    const metadata = step.providerMetadata?.[metadataKey] as
      | { run?: string; task?: string; selectionId?: string | null; shownIds?: string[]; offline?: boolean }
      | undefined;
    if (!metadata || metadata.offline) continue;
    if (typeof metadata.task !== "string" || metadata.selectionId === undefined) continue;
    return {
      run: metadata.run ?? "",
      task: metadata.task,
      selection: { selectionId: metadata.selectionId, promptBlock: "", shownIds: metadata.shownIds ?? [] },
    };
  }
  return undefined;
}

function firstUserText(prompt: Prompt): string | undefined {
  const user = prompt.find((message) => message.role === "user");
  if (!user) return undefined;
  const text = user.content
    .filter((part) => part.type === "text")
    .map((part) => (part as { text: string }).text)
    .join("");
  return text.trim() === "" ? undefined : text;
}

/** The prompt with the block after its system message (one is added first when there is none). */
function addBlock(prompt: Prompt, block: string): Prompt {
  if (block === "") return prompt;
  const [first, ...rest] = prompt;
  if (first?.role === "system")
    return [{ ...first, content: withPromptBlock(first.content, block) }, ...rest];
  return [{ role: "system", content: block }, ...prompt];
}
