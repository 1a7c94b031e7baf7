import { AsyncLocalStorage } from "node:async_hooks";

/**
 * One attempt of a team's agent inside tfgrpo's offline learning (`learn --agent`, `eval --agent`): the experiences
 * the learning step chose for it (its exposure arm already applied) and the model seed of the attempt. tfgrpo's
 * agent middlewares (LangChain, AI SDK) read it instead of asking a library, and mark it used.
 */
export interface AgentAttempt {
  taskId: string;
  attempt: number;
  /** The experience block for the system prompt; empty when the attempt is shown nothing. */
  promptBlock: string;
  /** Ids the block shows. */
  shownIds: readonly string[];
  /** The attempt's model seed: attempts of a group differ by it, as tfgrpo's own actor's do. */
  seed: number;
  temperature: number;
  /** Set by a middleware that put the block into a model call: an agent that never does is not using tfgrpo. */
  used: boolean;
  /** The system prompt of the attempt's last model call, as a middleware sent it (for the trajectory). */
  systemPrompt?: string;
}

// One store per process, found by a global symbol: the middleware may come from the team's own copy of the package
// and tfgrpo's runner from another, and both must see the same attempt.
const storeKey = Symbol.for("tfgrpo.agent-attempt");
const holder = globalThis as { [storeKey]?: AsyncLocalStorage<AgentAttempt> };
const store: AsyncLocalStorage<AgentAttempt> = holder[storeKey] ?? new AsyncLocalStorage<AgentAttempt>();
holder[storeKey] = store;

/** Runs `work` as one attempt: every middleware call inside it (however deep in awaits) sees `attempt`. */
export function runAgentAttempt<T>(attempt: AgentAttempt, work: () => T): T {
  return store.run(attempt, work);
}

/** The attempt being run, when tfgrpo is running the agent offline; undefined when the agent serves for real. */
export function currentAgentAttempt(): AgentAttempt | undefined {
  return store.getStore();
}
