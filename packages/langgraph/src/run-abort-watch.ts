import { getConfig } from "@langchain/langgraph";
import type { RunSelection } from "@tfgrpo/protocol";

/** Runs in flight at most whose abort is watched; the oldest are let go beyond it. */
const maxOpenRuns = 10_000;

/**
 * Reports a run aborted through its signal wherever it stops (in a tool, between steps), not only in a model call:
 * `watch` when the run starts (inside one of its nodes), `end` when it ends normally.
 */
export function createRunAbortWatch(fail: (selection: RunSelection, error: Error) => Promise<unknown>) {
  const watches = new Map<string, () => void>();
  return {
    watch(selection: RunSelection) {
      const signal = runSignal();
      const { selectionId } = selection;
      if (!signal || selectionId === null) return;
      const onAbort = () => {
        watches.delete(selectionId);
        const reason: unknown = signal.reason;
        const message = reason instanceof Error ? reason.message : String(reason ?? "aborted");
        // The run itself rejects with the abort; a report that fails here goes to onReportError or nowhere.
        fail(selection, new Error(`aborted (${message})`)).catch(() => {});
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      watches.set(selectionId, () => signal.removeEventListener("abort", onAbort));
      while (watches.size > maxOpenRuns) {
        const [oldest, dispose] = watches.entries().next().value as [string, () => void];
        dispose();
        watches.delete(oldest);
      }
    },
    end(selection: RunSelection | undefined) {
      if (!selection?.selectionId) return;
      watches.get(selection.selectionId)?.();
      watches.delete(selection.selectionId);
    },
  };
}

/**
 * The signal of the whole run (the caller's `signal`, and the stream's own). A node's `runtime.signal` is its
 * superstep's only, let go when the step ends, so the run's is read where LangGraph keeps it for the later steps.
 */
function runSignal(): AbortSignal | undefined {
  const signals = getConfig()?.configurable?.__pregel_abort_signals as
    | { externalAbortSignal?: AbortSignal }
    | undefined;
  return signals?.externalAbortSignal;
}
