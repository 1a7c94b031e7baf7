import { estimateTokens, type GateDecision, type UsageTotals } from "@tfgrpo/protocol";
import { average } from "../average.js";
import { compactOldTrajectories } from "../compact-old-trajectories.js";
import { isTrainingGroupOf } from "../group-ids.js";
import { splitRollouts } from "../infrastructure-failures.js";
import { stepLessonCosts } from "../lesson-costs.js";
import { runStateKeys } from "../run-state.js";
import type { StepRecord } from "../step-record.js";
import type { LearnDependencies } from "./learn-dependencies.js";
import { groupSkipReason, type RewardedGroup } from "./rewarded-group.js";
import { scoreOnValidation } from "./score-on-validation.js";

/** What the step's state says when it ends. */
interface FinishedStep {
  epoch: number;
  batchIndex: number;
  step: number;
  batchTaskIds: string[];
  headBefore: number | null;
  headVersion: number | null;
  statsRevision: string | null;
  candidateVersion: number | null;
  groups: RewardedGroup[];
  proposals: number;
  operations: number;
  candidateScore: number | null;
  headScore: number | null;
  gate: GateDecision | null;
}

/**
 * Measures the empty library when asked (the baseline curve), records the step's numbers and moves to the next batch
 * or epoch; the run is done after the last epoch.
 */
export function finishStep(deps: LearnDependencies) {
  const { options, val, runState, batchesPerEpoch } = deps;
  return async (state: FinishedStep) => {
    let baselineScore: number | null = null;
    let baselineFailures = 0;
    if (options.baselineEachRound && val.length > 0) {
      const baseline = await scoreOnValidation(deps, state, val, [null], "validation");
      baselineScore = average(baseline.scores[0]!);
      baselineFailures = baseline.infrastructureFailures;
    }
    const record = await stepRecord(deps, state, baselineScore, baselineFailures);
    await runState.put(runStateKeys.lessonCosts(state.step), await lessonCostsOf(deps, state, record));
    await runState.put(runStateKeys.step(state.step), record);
    await compactOldTrajectories(deps, state.step);
    const lastBatch = state.batchIndex + 1 >= batchesPerEpoch;
    const epoch = lastBatch ? state.epoch + 1 : state.epoch;
    return {
      baselineScore,
      batchIndex: lastBatch ? 0 : state.batchIndex + 1,
      epoch,
      done: epoch >= options.epochs,
    };
  };
}

async function stepRecord(
  { store, runId, domain, options, runState }: LearnDependencies,
  state: FinishedStep,
  baselineScore: number | null,
  baselineFailures: number,
): Promise<StepRecord> {
  const trajectories = await store.listTrajectories({ runId, step: state.step });
  const all = trajectories.filter((t) => isTrainingGroupOf(t.groupId, runId, state.step));
  // Numbers about the task come from the task-level rollouts; infrastructure failures are counted apart.
  const { taskLevel: train, infrastructureFailures } = splitRollouts(all);
  const gate =
    state.candidateVersion === null ? undefined : await runState.get(runStateKeys.gate(state.step));
  const head = state.headVersion === null ? null : await store.getVersion(domain, state.headVersion);
  const states: Record<string, number> = { candidate: 0, active: 0, probation: 0, archived: 0 };
  for (const entry of head?.experiences ?? []) states[entry.status] = (states[entry.status] ?? 0) + 1;
  const usage = await store.getUsageTotals(runId);
  // What the prompts showed, in entries and in the tokens of their lines, read against the version the rollouts read.
  const read =
    state.headBefore === state.headVersion
      ? head
      : state.headBefore === null
        ? null
        : await store.getVersion(domain, state.headBefore);
  const lineTokens = new Map(
    (read?.experiences ?? []).map((entry) => [entry.id, estimateTokens(`[${entry.id}]. ${entry.text}\n`)]),
  );
  const shownTokens = (ids: readonly string[]) => ids.reduce((sum, id) => sum + (lineTokens.get(id) ?? 0), 0);
  return {
    epoch: state.epoch + 1,
    step: state.step,
    tasks: state.batchTaskIds.length,
    rollouts: all.length,
    infrastructureFailures: infrastructureFailures.length,
    validationInfrastructureFailures: (gate?.infrastructureFailures ?? 0) + baselineFailures,
    trainReward: average(train.map((t) => t.reward ?? 0)),
    groups: state.groups.length,
    skippedGroups: state.groups.filter((group) => groupSkipReason(group, options.groupSize) !== null).length,
    proposals: state.proposals,
    leakageRefused: (await runState.get(runStateKeys.consolidation(state.step)))?.leaked ?? 0,
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
    meanEntriesShown: average(train.map((t) => t.experiencesShown.length)),
    meanLessonTokensShown: average(train.map((t) => shownTokens(t.experiencesShown))),
    usageByRole: usage.byRole as Record<string, UsageTotals>,
  };
}

async function lessonCostsOf(
  { store, domain, runState }: LearnDependencies,
  state: FinishedStep,
  record: StepRecord,
) {
  const advice = await Promise.all(
    state.groups.map((group) => runState.get(runStateKeys.advice(group.groupId))),
  );
  return stepLessonCosts(store, {
    step: state.step,
    domain,
    record,
    previous: state.step > 1 ? await runState.get(runStateKeys.step(state.step - 1)) : undefined,
    candidateVersion: state.candidateVersion,
    committed: state.gate?.decision === "commit",
    advice: advice.filter((answer) => answer !== undefined),
  });
}
