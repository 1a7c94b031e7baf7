import { type BaseMessageLike, SystemMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { TfgrpoError } from "@tfgrpo/protocol";
import type { GetExperiencesReply, LibraryClient, ReportOutcomeReply } from "@tfgrpo/serving";
import { messagesToTrajectory } from "./messages-to-trajectory.js";
import { firstHumanText, toBaseMessages } from "./to-base-messages.js";

/** What the hooks read from a graph's state: LangGraph's messages channel (messages or message-likes). */
export interface MessagesState {
  messages: BaseMessageLike[];
}

export interface ExperienceHooksOptions {
  /**
   * The library: `createLibraryService({ store })` in process, `createBusLibraryClient(bus)` for a library served on
   * NATS (`tfgrpo serve --role library`), or anything else with these two calls.
   */
  library: LibraryClient;
  domain: string;
  /** The agent's own system prompt; the experiences are appended after it, so it stays a cacheable prefix. */
  systemPrompt: string;
  /** The task text of a run; default: the text of the first human message. */
  task?: (state: MessagesState) => string;
  /** Pin a library version (default: the head, or whatever the service routes to). */
  version?: number;
  /** Show at most this many entries. */
  k?: number;
}

export interface OutcomeInput {
  /** Give this or `reward`. */
  success?: boolean;
  /** In [0, 1]; give this or `success`. */
  reward?: number;
  feedback?: string;
  /** Send the run's messages as the trajectory (default true); false sends only `summary`, if any. */
  includeTrajectory?: boolean;
  summary?: string;
  citedIds?: string[];
}

export interface ExperienceHooks {
  /**
   * The prompt hook: pass it as `createReactAgent({ llm, tools, prompt: hooks.prompt })`, or call it in your own
   * `StateGraph` node before the model. It returns the system message (your prompt + the selected experiences)
   * followed by the state's messages. The selection is made once per run (keyed by the `thread_id` of the config,
   * else by the task text) and reused on every model turn of that run, so every turn sends the same prefix.
   */
  prompt(state: MessagesState, config?: LangGraphRunnableConfig): Promise<BaseMessageLike[]>;
  /** Just the system message of a run (the same selection `prompt` uses). */
  systemMessage(state: MessagesState, config?: LangGraphRunnableConfig): Promise<SystemMessage>;
  /** The selection of a run (made on first use). */
  selection(state: MessagesState, config?: LangGraphRunnableConfig): Promise<GetExperiencesReply>;
  /**
   * The outcome hook: reports how the run went (`success` or `reward`) with its messages as the trajectory, exactly
   * once; then the run's selection is forgotten, so the next run of the same task gets a fresh one. Refused
   * (`not_found`) for a run that never asked for experiences.
   */
  reportOutcome(
    state: MessagesState,
    outcome: OutcomeInput,
    config?: LangGraphRunnableConfig,
  ): Promise<ReportOutcomeReply>;
}

/** Runs in flight at most; the oldest unreported selections are forgotten beyond it. */
const maxOpenRuns = 10_000;

/**
 * Prompt and outcome hooks that make any LangGraph.js agent use a tfgrpo experience library:
 *
 * ```ts
 * const hooks = createExperienceHooks({ library: createLibraryService({ store }), domain: "math", systemPrompt });
 * const agent = createReactAgent({ llm, tools, prompt: hooks.prompt });
 * const state = await agent.invoke({ messages: [new HumanMessage(task)] });
 * await hooks.reportOutcome(state, { success: isRight(state) });
 * ```
 */
export function createExperienceHooks(options: ExperienceHooksOptions): ExperienceHooks {
  const { library, domain } = options;
  const taskOf = options.task ?? humanTask;
  const open = new Map<string, Promise<GetExperiencesReply>>();

  const keyOf = (state: MessagesState, config?: LangGraphRunnableConfig) => {
    const thread = config?.configurable?.thread_id;
    return thread === undefined || thread === null ? `task:${taskOf(state)}` : `thread:${String(thread)}`;
  };

  const selection = (state: MessagesState, config?: LangGraphRunnableConfig) => {
    const key = keyOf(state, config);
    let pending = open.get(key);
    if (!pending) {
      pending = library.getExperiences({
        domain,
        task: taskOf(state),
        ...(options.version === undefined ? {} : { version: options.version }),
        ...(options.k === undefined ? {} : { k: options.k }),
      });
      open.set(key, pending);
      pending.catch(() => {
        if (open.get(key) === pending) open.delete(key);
      });
      while (open.size > maxOpenRuns) open.delete(open.keys().next().value as string);
    }
    return pending;
  };

  const systemMessage = async (state: MessagesState, config?: LangGraphRunnableConfig) => {
    const { promptBlock } = await selection(state, config);
    return new SystemMessage(
      promptBlock === "" ? options.systemPrompt : `${options.systemPrompt}\n\n${promptBlock}`,
    );
  };

  return {
    selection,
    systemMessage,
    async prompt(state, config) {
      return [await systemMessage(state, config), ...toBaseMessages(state.messages)];
    },
    async reportOutcome(state, outcome, config) {
      const key = keyOf(state, config);
      const pending = open.get(key);
      if (!pending) {
        throw new TfgrpoError(
          "not_found",
          `no experiences were served for this run (${key.slice(0, 80)}): use hooks.prompt before reporting`,
          { details: { key } },
        );
      }
      const { selectionId } = await pending;
      const reply = await library.reportOutcome({
        selectionId,
        ...(outcome.success === undefined ? {} : { success: outcome.success }),
        ...(outcome.reward === undefined ? {} : { reward: outcome.reward }),
        ...(outcome.feedback === undefined ? {} : { feedback: outcome.feedback }),
        ...(outcome.summary === undefined ? {} : { summary: outcome.summary }),
        ...(outcome.citedIds === undefined ? {} : { citedIds: outcome.citedIds }),
        ...(outcome.includeTrajectory === false ? {} : { trajectory: messagesToTrajectory(state.messages) }),
      });
      if (open.get(key) === pending) open.delete(key);
      return reply;
    },
  };
}

function humanTask(state: MessagesState): string {
  const text = firstHumanText(state.messages);
  if (text === undefined) {
    throw new TfgrpoError(
      "invalid_input",
      "the run has no human message to take the task from: pass `task` to createExperienceHooks",
    );
  }
  return text;
}
