import {
  createExperienceRuns,
  currentAgentAttempt,
  type ExperienceRunsOptions,
  type ReportOutcomeReply,
  type RunOutcomeLike,
  type RunSelection,
  TfgrpoError,
  withPromptBlock,
} from "@tfgrpo/protocol";
import type { LanguageModelMiddleware, ModelMessage, StepResult, ToolSet } from "ai";

type CallOptions = Parameters<NonNullable<LanguageModelMiddleware["transformParams"]>>[0]["params"];
type Prompt = CallOptions["prompt"];

/** What a reward function of a run reads: the task, the final text and the steps (tool calls and results). */
export interface ExperienceRun {
  task: string;
  text: string;
  steps: ReadonlyArray<StepResult<ToolSet>>;
  shownIds: string[];
}

/** The part of `generateText`'s result (or `onFinish`'s event) the middleware reads. */
export interface FinishedRun {
  text: string;
  steps: ReadonlyArray<StepResult<ToolSet>>;
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
   * The `maxRetries` the AI SDK is given (default 2, its own default). It retries a retryable error inside this
   * middleware, so the run has failed for good after this many retries + 1 retryable failures in a row (or one
   * error it does not retry).
   */
  maxRetries?: number;
}

/** The middleware, with the two calls that report a run. */
export type ExperienceMiddleware = LanguageModelMiddleware & {
  /** Pass as `onFinish` of `ToolLoopAgent`, `generateText` or `streamText`: reports the run with `reward`. */
  onFinish(event: FinishedRun): Promise<void>;
  /** Reports a run by hand (no `reward`): `generateText`'s result and how it went; once per run. */
  reportOutcome(result: FinishedRun, outcome: RunOutcomeLike): Promise<ReportOutcomeReply | null>;
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
 * gets the same block after its system prompt; `onFinish` reports the run's outcome with its messages. Runs of the
 * same task text at the same time share one selection. Under `tfgrpo learn --agent` it takes the attempt's block and
 * seed from tfgrpo and reports nothing.
 */
export function experienceMiddleware(options: ExperienceMiddlewareOptions): ExperienceMiddleware {
  const runs = createExperienceRuns(options);
  /** Open runs by task text: one selection for every model call of a run. */
  const open = new Map<string, Promise<RunSelection>>();
  /** Retryable failures in a row, by run. */
  const retried = new Map<string, number>();
  const selectionFor = (task: string) => {
    let pending = open.get(task);
    if (!pending) {
      pending = runs.select(task);
      open.set(task, pending);
      pending.catch(() => open.delete(task));
      while (open.size > maxOpenRuns) open.delete(open.keys().next().value as string);
    }
    return pending;
  };
  const runOf = (params: CallOptions) => {
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
    const selection = attempt ? await runs.select("") : await selectionFor(runOf(params));
    const prompt = addBlock(params.prompt, selection.promptBlock);
    if (attempt) attempt.systemPrompt = prompt[0]?.role === "system" ? prompt[0].content : "";
    return { ...params, prompt, ...(attempt ? { seed: attempt.seed } : {}) };
  };
  const onError = async (params: CallOptions, error: unknown) => {
    if (currentAgentAttempt()) return;
    // A prompt without a task never got a selection: nothing to report, and the model's error is what goes on.
    const task = firstUserText(params.prompt);
    if (task === undefined) return;
    if ((error as { isRetryable?: boolean }).isRetryable === true) {
      const failures = (retried.get(task) ?? 0) + 1;
      retried.set(task, failures);
      if (failures <= (options.maxRetries ?? 2)) return;
    }
    retried.delete(task);
    const pending = open.get(task);
    if (!pending) return;
    open.delete(task);
    await runs.fail(await pending, error);
  };
  const metadataFor = async (params: CallOptions) => {
    if (currentAgentAttempt()) return { offline: true };
    const task = runOf(params);
    const selection = await open.get(task);
    return { task, selectionId: selection?.selectionId ?? null, shownIds: selection?.shownIds ?? [] };
  };

  const middleware: LanguageModelMiddleware = {
    specificationVersion: "v3",
    transformParams: ({ params }) => withSelection(params),
    wrapGenerate: async ({ doGenerate, params }) => {
      try {
        const result = await doGenerate();
        retried.delete(runOf(params));
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
        retried.delete(runOf(params));
      } catch (error) {
        await onError(params, error);
        throw error;
      }
      const metadata = await metadataFor(params);
      const stream = result.stream.pipeThrough(
        new TransformStream({
          transform(part, controller) {
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
    const { task, selection } = found;
    const value =
      outcome ??
      (options.reward
        ? await options.reward({ task, text: run.text, steps: run.steps, shownIds: selection.shownIds })
        : undefined);
    if (value === undefined) {
      // The run is over either way: the next run of the task gets a fresh selection (a report by hand still can).
      open.delete(task);
      return null;
    }
    open.delete(task);
    return runs.finish(selection, value, where, {
      trajectory: [{ role: "user", content: task }, ...run.response.messages],
    });
  };

  return Object.assign(middleware, {
    onFinish: async (event: FinishedRun) => {
      await reportRun(event, undefined, "experienceMiddleware's reward");
    },
    reportOutcome: async (result: FinishedRun, outcome: RunOutcomeLike) => {
      const reply = await reportRun(result, outcome, "reportOutcome");
      if (reply === null && !currentAgentAttempt() && !selectionOfRun(result)) {
        throw new TfgrpoError(
          "not_found",
          "experienceMiddleware: this result is not from a model wrapped with the middleware",
        );
      }
      return reply;
    },
  });
}

function selectionOfRun(run: FinishedRun): { task: string; selection: RunSelection } | undefined {
  for (const step of run.steps) {
    const metadata = step.providerMetadata?.[metadataKey] as
      | { task?: string; selectionId?: string | null; shownIds?: string[]; offline?: boolean }
      | undefined;
    if (!metadata || metadata.offline) continue;
    if (typeof metadata.task !== "string" || metadata.selectionId === undefined) continue;
    return {
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
