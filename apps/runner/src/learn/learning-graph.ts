import { Annotation, type BaseCheckpointSaver, END, START, StateGraph } from "@langchain/langgraph";
import type { GateDecision } from "@tfgrpo/protocol";
import { advantage } from "./nodes/advantage.js";
import { closeRun } from "./nodes/close-run.js";
import { consolidate } from "./nodes/consolidate.js";
import { credit } from "./nodes/credit.js";
import { finishStep } from "./nodes/finish-step.js";
import { type LearnContext, learnDependencies } from "./nodes/learn-dependencies.js";
import { lifecycle } from "./nodes/lifecycle.js";
import { reward } from "./nodes/reward.js";
import type { RewardedGroup } from "./nodes/rewarded-group.js";
import { rollout } from "./nodes/rollout.js";
import { sampleBatch } from "./nodes/sample-batch.js";
import { validateAndGate } from "./nodes/validate-and-gate.js";
import { createStepTracing } from "./step-tracing.js";

export type { LearnContext } from "./nodes/learn-dependencies.js";

/**
 * The Training-Free GRPO learning loop, one learning step per pass (DESIGN §3):
 *
 *   sampleBatch -> rollout (N tasks x G attempts) -> reward -> credit -> lifecycle
 *     -> advantage (skip groups whose rewards are all equal; summaries, <= 3 ops per group)
 *     -> consolidate (curator: a proposed version)
 *     -> validateAndGate (candidate vs head on held-out tasks; the curator's gate: commit | reject)
 *     -> finishStep -> next batch / epoch
 *   -> closeRun (after the last step: the lifecycle's closing look on the final credit) -> END
 *
 * Each node is a file in `nodes/` (`sampleBatch` in `sample-batch.ts`...), built from the run's dependencies. Nodes talk to roles only through the Bus and
 * keep large payloads in the store; the graph state holds ids and small numbers of the current step only (never the
 * pool, never the finished steps: a checkpoint is written after every node and stays the same size however large the
 * pool and however long the run; the steps' records are in the run state), and every node is idempotent (what it
 * did is in the store or the run's typed run state), so a run resumed from its last checkpoint neither redoes
 * finished rollouts nor applies operations twice.
 */
export const LearnState = Annotation.Root({
  epoch: Annotation<number>,
  batchIndex: Annotation<number>,
  step: Annotation<number>,
  /** The tasks of this step, in the epoch's seeded order. */
  batchTaskIds: Annotation<string[]>,
  /** Tasks of this step that taught nothing in every earlier group (no mixed group): rolled out with fewer attempts. */
  settledTaskIds: Annotation<string[]>,
  /** The committed head the step works on; moves on lifecycle moves and on a committed candidate. */
  headVersion: Annotation<number | null>,
  headBefore: Annotation<number | null>,
  /** The entries' stats revision the curator's last credit returned (null before this run's first credit). */
  statsRevision: Annotation<string | null>,
  /** The curator's proposed version of this step, if the proposals changed anything. */
  candidateVersion: Annotation<number | null>,
  groups: Annotation<RewardedGroup[]>,
  proposals: Annotation<number>,
  operations: Annotation<number>,
  candidateScore: Annotation<number | null>,
  headScore: Annotation<number | null>,
  baselineScore: Annotation<number | null>,
  gate: Annotation<GateDecision | null>,
  done: Annotation<boolean>,
  /** Why the run ended before its last epoch ("budget"), or null. */
  stoppedBy: Annotation<string | null>,
});
export type LearnStateValue = typeof LearnState.State;

export function initialLearnState(headVersion: number | null): Partial<LearnStateValue> {
  return {
    epoch: 0,
    batchIndex: 0,
    step: 0,
    batchTaskIds: [],
    settledTaskIds: [],
    headVersion,
    headBefore: headVersion,
    statsRevision: null,
    candidateVersion: null,
    groups: [],
    proposals: 0,
    operations: 0,
    candidateScore: null,
    headScore: null,
    baselineScore: null,
    gate: null,
    done: false,
    stoppedBy: null,
  };
}

export function createLearningGraph(context: LearnContext, checkpointer?: BaseCheckpointSaver) {
  const deps = learnDependencies(context);
  const stoppable = untilStopped(context.signal);
  const traced = createStepTracing({ runId: deps.runId, domain: deps.domain });
  const node = <S, R>(name: string, run: (state: S) => Promise<R>) => traced(name, stoppable(run));
  const graph = new StateGraph(LearnState)
    .addNode("sampleBatch", node("sampleBatch", sampleBatch(deps)))
    .addNode("rollout", node("rollout", rollout(deps)))
    .addNode("reward", node("reward", reward(deps)))
    .addNode("credit", node("credit", credit(deps)))
    .addNode("lifecycle", node("lifecycle", lifecycle(deps)))
    .addNode("advantage", node("advantage", advantage(deps)))
    .addNode("consolidate", node("consolidate", consolidate(deps)))
    // Not "gate": that is a state field. Checkpoints of runs started before the split also wait at this name.
    .addNode("validateAndGate", node("validateAndGate", validateAndGate(deps)))
    .addNode("finishStep", node("finishStep", finishStep(deps)))
    .addNode("closeRun", node("closeRun", closeRun(deps)))
    .addEdge(START, "sampleBatch")
    .addConditionalEdges("sampleBatch", (state) => (state.done ? "closeRun" : "rollout"), [
      "closeRun",
      "rollout",
    ])
    .addEdge("rollout", "reward")
    .addEdge("reward", "credit")
    .addEdge("credit", "lifecycle")
    .addEdge("lifecycle", "advantage")
    .addEdge("advantage", "consolidate")
    .addConditionalEdges(
      "consolidate",
      (state) => (state.candidateVersion === null ? "finishStep" : "validateAndGate"),
      ["finishStep", "validateAndGate"],
    )
    .addEdge("validateAndGate", "finishStep")
    .addConditionalEdges("finishStep", (state) => (state.done ? "closeRun" : "sampleBatch"), [
      "closeRun",
      "sampleBatch",
    ])
    .addEdge("closeRun", END);
  return graph.compile(checkpointer ? { checkpointer } : {});
}

/**
 * A stop request (SIGTERM, SIGINT: the context's signal) takes effect between nodes: a node that has started runs to
 * its end (a role call in flight is answered and its outcome stored, so a resumed run never applies it twice), and the
 * next one does not start. Only the rollout phases stop at once (their jobs are idempotent by id).
 */
function untilStopped(signal: AbortSignal | undefined) {
  return <S, R>(node: (state: S) => Promise<R>) =>
    async (state: S): Promise<R> => {
      if (signal?.aborted) throw signal.reason;
      return node(state);
    };
}
