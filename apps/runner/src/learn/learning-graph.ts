import { Annotation, type BaseCheckpointSaver, END, START, StateGraph } from "@langchain/langgraph";
import {
  type Bus,
  criticGroupAdvice,
  curatorConsolidate,
  curatorCredit,
  curatorGate,
  curatorLifecycle,
  type GateDecision,
  type GroupAdviceResult,
  mapWithConcurrency,
  type Proposal,
  type RolloutRequest,
  type Task,
  type Trajectory,
  type UsageTotals,
} from "@tfgrpo/protocol";
import type { Store } from "@tfgrpo/store";
import { seededRandom, seedFrom } from "../metrics/seeded-random.js";
import {
  evaluateLibraries,
  type LibraryUnderTest,
  pseudoLabelKey,
  rewardGroup,
  runRollouts,
} from "./evaluate-libraries.js";
import type { LearnOptions } from "./learn-options.js";
import type { StepRecord } from "./step-record.js";

/**
 * The Training-Free GRPO learning loop, one learning step per pass:
 *
 *   sampleBatch -> rollout (N tasks x G attempts) -> reward (+ credit) -> advantage (skip homogeneous groups;
 *   summaries, <= 3 ops per group) -> consolidate (curator: a proposed version) -> validate (candidate vs head on
 *   held-out tasks) -> gate (commit | reject) -> finishStep -> next batch / epoch -> END
 *
 * Nodes talk to roles only through the Bus and keep large payloads in the store; the graph state holds ids and small
 * numbers, and every node is idempotent (it reuses what the store already holds), so a run resumed from its last
 * checkpoint neither redoes finished rollouts nor applies operations twice.
 */
export const LearnState = Annotation.Root({
  epoch: Annotation<number>,
  batchIndex: Annotation<number>,
  step: Annotation<number>,
  batchTaskIds: Annotation<string[]>,
  headVersion: Annotation<number | null>,
  headBefore: Annotation<number | null>,
  candidateVersion: Annotation<number | null>,
  groups: Annotation<{ groupId: string; taskId: string; rewards: number[] }[]>,
  proposals: Annotation<number>,
  operations: Annotation<number>,
  candidateScore: Annotation<number | null>,
  headScore: Annotation<number | null>,
  baselineScore: Annotation<number | null>,
  gate: Annotation<GateDecision | null>,
  done: Annotation<boolean>,
  stoppedBy: Annotation<string | null>,
  history: Annotation<StepRecord[]>({ reducer: (left, right) => left.concat(right), default: () => [] }),
});
export type LearnStateValue = typeof LearnState.State;

export interface LearnContext {
  bus: Bus;
  store: Store;
  options: LearnOptions;
  train: readonly Task[];
  val: readonly Task[];
  /** Progress of a long phase: returns the callback that receives (done, total). */
  progress: (label: string) => { update: (done: number, total: number) => void; done: () => void };
  log: (line: string) => void;
  signal?: AbortSignal;
}

export function initialLearnState(headVersion: number | null): Partial<LearnStateValue> {
  return {
    epoch: 0,
    batchIndex: 0,
    step: 0,
    batchTaskIds: [],
    headVersion,
    headBefore: headVersion,
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
  const { bus, store, options, log } = context;
  const { runId, domain } = options;
  const taskById = new Map(context.train.map((task) => [task.id, task]));
  const batchSize = Math.min(options.batchSize ?? context.train.length, context.train.length);
  const batchesPerEpoch = Math.ceil(context.train.length / batchSize);

  const sampleBatch = async (state: LearnStateValue) => {
    if (options.budgetUsd !== undefined) {
      const spent = (await store.getUsageTotals(runId)).total.costUsd;
      if (spent >= options.budgetUsd) {
        log(
          `budget reached ($${spent.toFixed(4)} of $${options.budgetUsd}): stopping before step ${state.step + 1}`,
        );
        return { done: true, stoppedBy: "budget" };
      }
    }
    // Each epoch visits the train set in its own seeded order, batch by batch.
    const order = shuffled(
      context.train.map((t) => t.id),
      seedFrom(options.seed, "epoch", state.epoch),
    );
    const batchTaskIds = order.slice(state.batchIndex * batchSize, (state.batchIndex + 1) * batchSize);
    const step = state.step + 1;
    log(
      `step ${step} (epoch ${state.epoch + 1}/${options.epochs}, batch ${state.batchIndex + 1}/${batchesPerEpoch}): ${batchTaskIds.length} tasks x ${options.groupSize} rollouts`,
    );
    return {
      step,
      batchTaskIds,
      headBefore: state.headVersion,
      candidateVersion: null,
      candidateScore: null,
      headScore: null,
      baselineScore: null,
      gate: null,
    };
  };

  const rollout = async (state: LearnStateValue) => {
    const jobs: { id: string; input: RolloutRequest }[] = [];
    for (const taskId of state.batchTaskIds) {
      const task = taskById.get(taskId)!;
      const groupId = groupIdOf(runId, state.step, taskId);
      for (let attempt = 0; attempt < options.groupSize; attempt++) {
        jobs.push({
          id: `${groupId}/${attempt}`,
          input: {
            runId,
            task,
            groupId,
            attempt,
            epoch: state.epoch,
            step: state.step,
            // Stats as of the credit of the previous step: exactly what this step's rollouts may rank by.
            library:
              state.headVersion === null
                ? null
                : { domain, version: state.headVersion, statsRevision: statsRevision(runId, state.step - 1) },
            mode: options.mode,
            temperature: options.temperature,
            seed: seedFrom(options.seed, state.step, taskId, attempt),
            purpose: "train",
          },
        });
      }
    }
    const progress = context.progress(`step ${state.step} rollouts`);
    await runRollouts({ bus, store, runId, jobs, onProgress: progress.update, ...signalOf(context) });
    progress.done();
    return {};
  };

  const reward = async (state: LearnStateValue) => {
    const groups = await mapWithConcurrency(state.batchTaskIds, options.concurrency, async (taskId) => {
      const groupId = groupIdOf(runId, state.step, taskId);
      const group = await rewardGroup({
        bus,
        store,
        runId,
        task: taskById.get(taskId)!,
        groupId,
        groundTruth: options.groundTruth,
      });
      return { groupId, taskId, trajectories: group };
    });
    // Credit: every shown entry learns how its rollouts did against their group's mean.
    if (state.headVersion !== null) {
      const observations = groups.flatMap(({ trajectories }) => {
        const mean = average(trajectories.map((t) => t.reward ?? 0));
        return trajectories.map((t) => ({
          trajectoryId: t.id,
          reward: t.reward ?? 0,
          groupMeanReward: mean,
          shown: t.experiencesShown,
          cited: t.experiencesCited,
        }));
      });
      const creditKey = `credit/s${state.step}`;
      if ((await store.getRunState(runId, creditKey)) === undefined) {
        await bus.request(curatorCredit, { domain, version: state.headVersion, observations });
        await store.putRunState(runId, creditKey, { observations: observations.length });
      }
    }
    // Lifecycle moves (candidate -> active, active -> probation -> archived...) follow the evidence just credited.
    // They are bookkeeping on measured stats, committed directly; new content still waits for the gate.
    let headVersion = state.headVersion;
    if (headVersion !== null) {
      const lifecycleKey = `lifecycle/s${state.step}`;
      let moved = (await store.getRunState(runId, lifecycleKey)) as { version: number | null } | undefined;
      if (!moved) {
        const reply = await bus.request(curatorLifecycle, {
          domain,
          version: headVersion,
          state: "committed",
          runId,
        });
        for (const t of reply.transitions)
          log(`step ${state.step}: lifecycle ${t.id} ${t.from} -> ${t.to}: ${t.reason}`);
        moved = { version: reply.version };
        await store.putRunState(runId, lifecycleKey, moved);
      }
      if (moved.version !== null) headVersion = moved.version;
    }
    return {
      headVersion,
      groups: groups.map(({ groupId, taskId, trajectories }) => ({
        groupId,
        taskId,
        rewards: trajectories.map((t) => t.reward ?? 0),
      })),
    };
  };

  const advantage = async (state: LearnStateValue) => {
    const head = state.headVersion === null ? null : await store.getVersion(domain, state.headVersion);
    const experiences = (head?.experiences ?? [])
      .filter((e) => e.status !== "archived")
      .map((e) => ({ id: e.id, text: e.text }));
    // The paper's std = 0 rule: a group whose rewards are all equal has no winner to learn from. With G = 1 there is
    // no group to compare, so every single trajectory is reflected on (the ablation).
    const learnable = state.groups.filter((g) => options.groupSize === 1 || new Set(g.rewards).size > 1);
    const skipped = state.groups.length - learnable.length;
    log(
      `step ${state.step}: ${learnable.length} group(s) to learn from, ${skipped} homogeneous group(s) skipped`,
    );
    const progress = context.progress(`step ${state.step} advantages`);
    let finished = 0;
    const results = await mapWithConcurrency(learnable, options.concurrency, async (group) => {
      const key = `advice/${group.groupId}`;
      let advice = (await store.getRunState(runId, key)) as GroupAdviceResult | undefined;
      if (!advice) {
        const trajectories: Trajectory[] = await store.listTrajectories({ runId, groupId: group.groupId });
        const task = taskById.get(group.taskId)!;
        const pseudoLabel =
          ((await store.getRunState(runId, pseudoLabelKey(group.groupId))) as string | undefined) ?? null;
        try {
          advice = await bus.request(criticGroupAdvice, {
            runId,
            groupId: group.groupId,
            task,
            trajectories,
            experiences,
            ...(options.groundTruth === "none" ? { pseudoLabel } : {}),
          });
        } catch (error) {
          // One group's unusable critic answer must not fail the step: it is skipped with its reason.
          advice = {
            groupId: group.groupId,
            summaries: [],
            proposals: [],
            skipped: `critic failed: ${(error as Error).message}`,
          };
        }
        await store.putRunState(runId, key, advice);
        if (advice.usage && advice.usage.calls > 0)
          await recordRoleUsage(store, runId, key, "critic", advice.usage);
      }
      if (advice.skipped) log(`step ${state.step}: group ${group.taskId} skipped: ${advice.skipped}`);
      progress.update(++finished, learnable.length);
      return advice;
    });
    progress.done();
    const proposals = results.flatMap((r) => r.proposals);
    await store.putRunState(runId, `proposals/s${state.step}`, proposals);
    return { proposals: proposals.length };
  };

  const consolidate = async (state: LearnStateValue) => {
    const key = `consolidate/s${state.step}`;
    let outcome = (await store.getRunState(runId, key)) as
      | { version: number | null; operations: number }
      | undefined;
    if (!outcome) {
      const proposals = ((await store.getRunState(runId, `proposals/s${state.step}`)) ?? []) as Proposal[];
      if (proposals.length === 0) {
        outcome = { version: null, operations: 0 };
      } else {
        const reply = await bus.request(curatorConsolidate, {
          runId,
          domain,
          baseVersion: state.headVersion,
          proposals,
        });
        for (const note of reply.notes) log(`step ${state.step}: curator: ${note}`);
        if (reply.usage && reply.usage.calls > 0)
          await recordRoleUsage(store, runId, key, "curator", reply.usage);
        outcome = { version: reply.version, operations: reply.operations.length };
      }
      await store.putRunState(runId, key, outcome);
    }
    log(
      `step ${state.step}: ${state.proposals} proposal(s) -> ${outcome.operations} operation(s)${outcome.version === null ? ", no new version" : `, candidate v${outcome.version}`}`,
    );
    return { candidateVersion: outcome.version, operations: outcome.operations };
  };

  const label = (version: number | null) => (version === null ? "none" : `${domain}@v${version}`);
  // Validation runs after this step's credit.
  const underTestAt = (version: number | null, step: number): LibraryUnderTest => ({
    label: label(version),
    library: version === null ? null : { domain, version, statsRevision: statsRevision(runId, step) },
  });

  const evaluate = async (
    state: LearnStateValue,
    tasks: readonly Task[],
    versions: (number | null)[],
    name: string,
  ) => {
    const progress = context.progress(`step ${state.step} ${name}`);
    const evaluations = await evaluateLibraries({
      bus,
      store,
      runId,
      // Keyed by library, not by step: the head's score on the same tasks and seeds is measured once and reused.
      evaluationId: name,
      tasks,
      libraries: versions.map((version) => underTestAt(version, state.step)),
      k: options.valK,
      temperature: options.evalTemperature,
      seed: seedFrom(options.seed, "validation"),
      purpose: "validate",
      mode: options.mode,
      groundTruth: options.groundTruth,
      concurrency: options.concurrency,
      onProgress: progress.update,
      ...signalOf(context),
    });
    progress.done();
    return evaluations.map((e) => e.tasks.map((t) => average(t.rewards)));
  };

  const validateAndGate = async (state: LearnStateValue) => {
    const candidate = state.candidateVersion!;
    const key = `gate/s${state.step}`;
    const stored = (await store.getRunState(runId, key)) as
      | { gate: GateDecision; candidateScore: number; headScore: number }
      | undefined;
    if (stored)
      return { ...stored, headVersion: stored.gate.decision === "commit" ? candidate : state.headVersion };

    // Evaluate candidate and head on the same tasks and seeds, then let the curator decide on those numbers.
    const judge = async (tasks: readonly Task[], name: string, stage: "precheck" | "full") => {
      const [candidateScores, headScores] = await evaluate(
        state,
        tasks,
        [candidate, state.headVersion],
        name,
      );
      const gate = await bus.request(curatorGate, {
        domain,
        candidateVersion: candidate,
        headVersion: state.headVersion,
        candidateScores: candidateScores!,
        headScores: headScores!,
        stage,
      });
      return { gate, candidateScore: average(candidateScores!), headScore: average(headScores!) };
    };

    let decision: GateDecision | null = null;
    if (options.precheckSize > 0 && options.precheckSize < context.val.length) {
      decision = (await judge(context.val.slice(0, options.precheckSize), "precheck", "precheck")).gate;
      log(`step ${state.step}: pre-check ${decision.decision}: ${decision.reason}`);
    }
    let candidateScore = decision?.candidateScore ?? null;
    let headScore = decision?.headScore ?? null;
    if (!decision || decision.decision === "commit") {
      const full = await judge(context.val, "validation", "full");
      decision = full.gate;
      candidateScore = full.candidateScore;
      headScore = full.headScore;
    }
    log(
      `step ${state.step}: gate ${decision.decision} v${candidate} (${format(candidateScore)} vs head ${format(headScore)}): ${decision.reason}`,
    );
    const outcome = { gate: decision, candidateScore: candidateScore ?? 0, headScore: headScore ?? 0 };
    await store.putRunState(runId, key, outcome);
    return { ...outcome, headVersion: decision.decision === "commit" ? candidate : state.headVersion };
  };

  const finishStep = async (state: LearnStateValue) => {
    let baselineScore: number | null = null;
    if (options.baselineEachRound && context.val.length > 0) {
      const [scores] = await evaluate(state, context.val, [null], "validation");
      baselineScore = average(scores!);
    }
    const record = await stepRecord(state, baselineScore);
    await store.putRunState(runId, `step/${state.step}`, record);
    const lastBatch = state.batchIndex + 1 >= batchesPerEpoch;
    const epoch = lastBatch ? state.epoch + 1 : state.epoch;
    return {
      history: [record],
      baselineScore,
      batchIndex: lastBatch ? 0 : state.batchIndex + 1,
      epoch,
      done: epoch >= options.epochs,
    };
  };

  const stepRecord = async (state: LearnStateValue, baselineScore: number | null): Promise<StepRecord> => {
    const trajectories = await store.listTrajectories({ runId, step: state.step });
    const train = trajectories.filter((t) => t.groupId.startsWith(`${runId}/s${state.step}/`));
    const head = state.headVersion === null ? null : await store.getVersion(domain, state.headVersion);
    const states: Record<string, number> = { candidate: 0, active: 0, probation: 0, archived: 0 };
    for (const entry of head?.experiences ?? []) states[entry.status] = (states[entry.status] ?? 0) + 1;
    const usage = await store.getUsageTotals(runId);
    return {
      epoch: state.epoch + 1,
      step: state.step,
      tasks: state.batchTaskIds.length,
      rollouts: train.length,
      trainReward: average(train.map((t) => t.reward ?? 0)),
      groups: state.groups.length,
      skippedGroups:
        options.groupSize === 1 ? 0 : state.groups.filter((g) => new Set(g.rewards).size <= 1).length,
      proposals: state.proposals,
      operations: state.operations,
      headBefore: state.headBefore,
      candidateVersion: state.candidateVersion,
      headAfter: state.headVersion,
      librarySize: (states.active ?? 0) + (states.candidate ?? 0) + (states.probation ?? 0),
      libraryStates: states,
      candidateScore: state.candidateScore,
      headScore: state.headScore,
      baselineScore,
      decision: state.candidateVersion === null ? "no-change" : (state.gate?.decision ?? "reject"),
      gateReason: state.gate?.reason ?? "no candidate version",
      meanToolCalls: average(train.map((t) => t.toolCalls.length)),
      meanTokens: average(train.map((t) => t.usage.inputTokens + t.usage.outputTokens)),
      usageByRole: usage.byRole as Record<string, UsageTotals>,
    };
  };

  const graph = new StateGraph(LearnState)
    .addNode("sampleBatch", sampleBatch)
    .addNode("rollout", rollout)
    .addNode("reward", reward)
    .addNode("advantage", advantage)
    .addNode("consolidate", consolidate)
    .addNode("validateAndGate", validateAndGate)
    .addNode("finishStep", finishStep)
    .addEdge(START, "sampleBatch")
    .addConditionalEdges("sampleBatch", (state) => (state.done ? END : "rollout"), [END, "rollout"])
    .addEdge("rollout", "reward")
    .addEdge("reward", "advantage")
    .addEdge("advantage", "consolidate")
    .addConditionalEdges(
      "consolidate",
      (state) => (state.candidateVersion === null ? "finishStep" : "validateAndGate"),
      ["finishStep", "validateAndGate"],
    )
    .addEdge("validateAndGate", "finishStep")
    .addConditionalEdges("finishStep", (state) => (state.done ? END : "sampleBatch"), [END, "sampleBatch"]);
  return graph.compile(checkpointer ? { checkpointer } : {});
}

async function recordRoleUsage(
  store: Store,
  runId: string,
  id: string,
  role: "critic" | "curator",
  usage: UsageTotals,
) {
  const { calls: _calls, ...totals } = usage;
  await store.recordUsage(runId, [{ id, role, model: role, ...totals }]);
}

/** Names "the stats after the credit of step N" for the actors' snapshot caches. */
function statsRevision(runId: string, step: number): string {
  return `${runId}/credit-${step}`;
}

export function groupIdOf(runId: string, step: number, taskId: string): string {
  return `${runId}/s${step}/${taskId}`;
}

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const random = seededRandom(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function average(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length;
}

function format(value: number | null): string {
  return value === null ? "-" : value.toFixed(3);
}

function signalOf(context: LearnContext): { signal?: AbortSignal } {
  return context.signal ? { signal: context.signal } : {};
}
