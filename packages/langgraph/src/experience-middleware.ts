import { type BaseMessage, type BaseMessageLike, SystemMessage } from "@langchain/core/messages";
import { isGraphInterrupt } from "@langchain/langgraph";
import {
  createExperienceRuns,
  currentAgentAttempt,
  type ExperienceRunsOptions,
  type LaterOutcome,
  type RunOutcomeLike,
  type RunSelection,
  TfgrpoError,
  withPromptBlock,
} from "@tfgrpo/protocol";
import { createMiddleware } from "langchain";
import { z } from "zod";
import { messagesToTrajectory } from "./messages-to-trajectory.js";
import { createRunAbortWatch } from "./run-abort-watch.js";
import { firstHumanText, toBaseMessages } from "./to-base-messages.js";

/** What a reward function of the run reads: the agent's final state and the run's selection. */
export interface ExperienceRun {
  task: string;
  messages: BaseMessage[];
  /** The text of the last AI message (the answer), empty when there is none. */
  finalText: string;
  /** The agent's whole final state (its own channels and other middleware's too). */
  state: Record<string, unknown>;
  shownIds: string[];
}

/**
 * `library`: `createLibraryService({ store })`, `createBusLibraryClient(bus)`, or anything with these two calls;
 * optional for an agent that only learns offline (`tfgrpo learn --agent`), where tfgrpo gives each attempt its
 * experiences. `reportFailures` (default true): a run whose model call throws reports a failure, once.
 */
export interface ExperienceMiddlewareOptions extends ExperienceRunsOptions {
  /** Scores a finished run; the middleware reports it when the run ends. Without it, call `reportOutcome`. */
  reward?: (run: ExperienceRun) => RunOutcomeLike | Promise<RunOutcomeLike>;
  /**
   * The team's outcome of a served run, computed after it (e.g. from its own system's state): started when the run
   * ends, not awaited by it, and reported with the run's messages; undefined reports nothing yet (report later with
   * `reportOutcome(runId, outcome)`). `await experience.settled()` waits for them. Give this or `reward`.
   */
  outcome?: (run: ExperienceRun & { runId: string }) => LaterOutcome | Promise<LaterOutcome>;
  /** The task text of a run; default: the first human message. */
  task?: (messages: BaseMessage[]) => string;
}

const selectionSchema = z.object({
  selectionId: z.string().nullable(),
  promptBlock: z.string(),
  shownIds: z.array(z.string()),
});

/** The state channel the middleware keeps a run's selection in (checkpointed with the run). */
export const experienceStateKey = "tfgrpoSelection";

/**
 * `createAgent` middleware that makes an agent use a tfgrpo library:
 *
 * ```ts
 * const experience = experienceMiddleware({ library, domain: "math", reward: (run) => isRight(run.finalText) });
 * const agent = createAgent({ model, tools, systemPrompt, middleware: [experience, ...others] });
 * ```
 *
 * At the start of a run it selects the experiences for the task once (kept in the run's state), appends the block
 * to the system prompt of every model call of the run (byte-identical each time), and when the run ends reports the
 * outcome with the run's messages as the trajectory (cited ids are read from them). List it first: other middleware's
 * retries and fallbacks then happen inside it, and an error that leaves it ends the run (reported as a failure, once).
 * A run aborted through its `signal` is reported as a failure wherever it stops. LangChain gives middleware no hook
 * for an error thrown elsewhere (a tool with `toolRetryMiddleware`, another middleware's `beforeModel`): run the
 * agent inside `experience.run(() => agent.invoke(...))` and every error that ends the run is reported, once.
 * A reward the team knows only after the run (its own system's state): `outcome` (started when the run ends, not
 * awaited by it), or `reportOutcome(runId(state), outcome)` any time later.
 * Under `tfgrpo learn --agent` it takes the attempt's experiences and seed from tfgrpo and reports nothing.
 */
export function experienceMiddleware(options: ExperienceMiddlewareOptions) {
  if (options.reward && options.outcome) {
    throw new TfgrpoError(
      "invalid_config",
      "experienceMiddleware: give `reward` (scored as the run ends) or `outcome` (computed after it), not both",
    );
  }
  const runs = createExperienceRuns(options);
  const taskOf = (messages: BaseMessageLike[]) => {
    const base = toBaseMessages(messages);
    const task = options.task ? options.task(base) : firstHumanText(base);
    if (task === undefined || task.trim() === "") {
      throw new TfgrpoError(
        "invalid_input",
        "experienceMiddleware: the run has no human message to take the task from: pass `task` to experienceMiddleware",
      );
    }
    return task;
  };
  const reportRun = async (state: Record<string, unknown>, outcome: RunOutcomeLike, where: string) => {
    const selection = selectionOf(state);
    if (!selection) {
      throw new TfgrpoError(
        "not_found",
        "experienceMiddleware: this state is not from a run of an agent with the middleware (no selection in it)",
      );
    }
    const messages = toBaseMessages((state.messages as BaseMessageLike[] | undefined) ?? []);
    return runs.finish(selection, outcome, where, { trajectory: messagesToTrajectory(messages) });
  };

  const abortWatch = createRunAbortWatch(runs.fail);

  const middleware = createMiddleware({
    name: "TfgrpoExperienceMiddleware",
    stateSchema: z.object({ [experienceStateKey]: selectionSchema.optional() }),
    beforeAgent: async (state) => {
      const task = taskOf(state.messages as BaseMessageLike[]);
      const selection = await (runs.selectInScope(task) ?? runs.select(task));
      abortWatch.watch(selection);
      return { [experienceStateKey]: selection };
    },
    wrapModelCall: async (request, handler) => {
      const selection = selectionOf(request.state as Record<string, unknown>);
      const attempt = currentAgentAttempt();
      const block = selection?.promptBlock ?? "";
      const systemMessage = appendBlock(request.systemMessage, block);
      if (attempt) attempt.systemPrompt = systemMessage.text;
      try {
        return await handler({
          ...request,
          systemMessage,
          // Offline, attempts of a group differ by their seed, as tfgrpo's own actor's do.
          ...(attempt ? { modelSettings: { ...request.modelSettings, seed: attempt.seed } } : {}),
        });
      } catch (error) {
        if (selection && !isGraphInterrupt(error)) await runs.fail(selection, error);
        throw error;
      }
    },
    afterAgent: async (state) => {
      const selection = selectionOf(state as Record<string, unknown>);
      abortWatch.end(selection);
      if (!selection || runs.reported(selection) || selection.selectionId === null) return;
      const messages = toBaseMessages(state.messages as BaseMessageLike[]);
      const run = (): ExperienceRun => ({
        task: taskOf(messages),
        messages,
        finalText: finalText(messages),
        state: state as Record<string, unknown>,
        shownIds: selection.shownIds,
      });
      if (options.reward) {
        const outcome = await options.reward(run());
        await reportRun(state as Record<string, unknown>, outcome, "experienceMiddleware's reward");
        return;
      }
      const trajectory = messagesToTrajectory(messages);
      const { outcome } = options;
      const runId = selection.selectionId;
      if (outcome) {
        runs.reportLater(
          selection,
          trajectory,
          () => outcome({ ...run(), runId }),
          "experienceMiddleware's outcome",
        );
      } else runs.recordFinished(selection, trajectory);
    },
  });
  return Object.assign(middleware, {
    /**
     * Reports a run by hand (when no `reward` is given), any time after it: by the agent's final state (what `invoke`
     * returned) or by its run id (`runId(state)`, a string to keep until the team knows how the run went), and how
     * it went. Once per run: a second report gets the first one's reply. An offline attempt's run id (null) sends
     * nothing.
     */
    reportOutcome: (stateOrRunId: Record<string, unknown> | string | null, outcome: RunOutcomeLike) =>
      stateOrRunId === null || typeof stateOrRunId === "string"
        ? runs.reportById(stateOrRunId, outcome, "reportOutcome")
        : reportRun(stateOrRunId, outcome, "reportOutcome"),
    /**
     * The run id of a run (from its final state): the library's selection id, to report the run's outcome with later
     * (`reportOutcome(runId, ...)`, or `report_outcome`'s `selectionId` from anywhere); null under `tfgrpo learn`.
     */
    runId: (state: Record<string, unknown>): string | null => {
      const selection = selectionOf(state);
      if (!selection) {
        throw new TfgrpoError(
          "not_found",
          "experienceMiddleware: this state is not from a run of an agent with the middleware (no selection in it)",
        );
      }
      return selection.selectionId;
    },
    /** Resolves when every `outcome` started after a run so far has been computed and reported. */
    settled: () => runs.settled(),
    /**
     * Runs `work` (`() => agent.invoke(...)` or a stream consumed to its end) as one run: an error that ends it,
     * wherever it is thrown, is reported as a failure with its message, once; then thrown on.
     */
    run: <T>(work: () => T | PromiseLike<T>) => runs.run(work),
  });
}

function selectionOf(state: Record<string, unknown>): RunSelection | undefined {
  const parsed = selectionSchema.safeParse(state[experienceStateKey]);
  return parsed.success ? parsed.data : undefined;
}

/** The agent's system message with the block after it; a message with content blocks keeps them (cache marks). */
function appendBlock(system: SystemMessage, block: string): SystemMessage {
  if (block === "") return system;
  if (typeof system.content === "string") return new SystemMessage(withPromptBlock(system.content, block));
  return system.concat(new SystemMessage(`\n\n${block}`));
}

/** The last AI message's text: the run's answer. */
export function finalText(messages: readonly BaseMessage[]): string {
  const last = [...messages].reverse().find((m) => m.getType() === "ai" && m.text.trim() !== "");
  return last?.text ?? "";
}
