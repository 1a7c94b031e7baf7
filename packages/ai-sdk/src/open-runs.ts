import type { RunScope, RunSelection } from "@tfgrpo/protocol";
import type { LanguageModelMiddleware } from "ai";

export type CallOptions = Parameters<NonNullable<LanguageModelMiddleware["transformParams"]>>[0]["params"];
export type Prompt = CallOptions["prompt"];

/** A run in flight: every model call of one `generate`/`stream` (its steps and their retries). */
export interface OpenRun {
  key: string;
  task: string;
  selection: Promise<RunSelection>;
  /** Retryable failures in a row. */
  failures: number;
  toolCallIds: Set<string>;
}

/**
 * Which run a model call belongs to, without the caller naming it. The AI SDK calls the model once per step, and
 * retries a step with the same prompt array: a call whose prompt array was seen before is that call's retry; a call
 * whose last assistant message holds a tool call an open run made is that run's next step; any other call starts a
 * run. Two runs of the same task at the same time are two runs. Inside `experience.run(...)` the scope is the run.
 */
export function createOpenRuns(maxOpen: number) {
  const open = new Map<string, OpenRun>();
  const byToolCall = new Map<string, string>();
  const byPrompt = new WeakMap<Prompt, string>();
  const byScope = new WeakMap<RunScope, string>();
  let minted = 0;
  const mint = () => `run-${++minted}`;

  const close = (key: string) => {
    const run = open.get(key);
    if (!run) return;
    open.delete(key);
    for (const id of run.toolCallIds) byToolCall.delete(id);
  };

  /** The open run whose tool call the prompt's last assistant message answers, if any. */
  const continued = (prompt: Prompt) => {
    const assistant = [...prompt].reverse().find((message) => message.role === "assistant");
    if (assistant?.role !== "assistant") return undefined;
    for (const part of assistant.content) {
      if (part.type !== "tool-call") continue;
      const key = byToolCall.get(part.toolCallId);
      if (key !== undefined && open.has(key)) return key;
    }
    return undefined;
  };

  const scopeKey = (scope: RunScope) => {
    let key = byScope.get(scope);
    if (key === undefined) {
      key = mint();
      byScope.set(scope, key);
    }
    return key;
  };

  return {
    /** The run of a model call with this prompt (a new one, selecting with `select`, when it starts one). */
    runFor(prompt: Prompt, task: string, scope: RunScope | undefined, select: () => Promise<RunSelection>) {
      const key = scope ? scopeKey(scope) : (byPrompt.get(prompt) ?? continued(prompt) ?? mint());
      byPrompt.set(prompt, key);
      let run = open.get(key);
      if (!run) {
        run = { key, task, selection: select(), failures: 0, toolCallIds: new Set() };
        open.set(key, run);
        run.selection.catch(() => close(key));
        while (open.size > maxOpen) close(open.keys().next().value as string);
      }
      return run;
    },
    get: (key: string) => open.get(key),
    /** A tool call the run's model made: the step that answers it belongs to the run. */
    sawToolCall(run: OpenRun, toolCallId: string) {
      if (!open.has(run.key)) return;
      run.toolCallIds.add(toolCallId);
      byToolCall.set(toolCallId, run.key);
    },
    /** The run is over (reported, or failed for good): a later call does not join it. */
    close,
  };
}
