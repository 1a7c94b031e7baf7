import type { Store } from "@tfgrpo/store";
import type { Assumptions, PromptSizes, Range } from "./estimate-run-cost.js";

const around = (value: number, low = 0.75, high = 1.3): Range => [value * low, value, value * high];

/**
 * The assumptions measured on the latest learn run of this domain in the database (the model's own verbosity, calls
 * per rollout, tool output and accuracy), instead of defaults: after one small pilot run, estimates are about the
 * user's model, not a guess. Returns the defaults when there is no such run.
 */
export async function calibrateFromStore(
  store: Store,
  domain: string,
  prompts: PromptSizes,
  defaults: Assumptions,
): Promise<Assumptions> {
  const runs = (await store.listRuns({ kind: "learn", domain })).sort((a, b) =>
    b.startedAt.localeCompare(a.startedAt),
  );
  for (const run of runs) {
    const trajectories = await store.listTrajectories({ runId: run.id });
    const answered = trajectories.filter((trajectory) => trajectory.usage.calls > 0);
    if (answered.length === 0) continue;
    const calls = answered.reduce((total, trajectory) => total + trajectory.usage.calls, 0);
    const input = answered.reduce((total, trajectory) => total + trajectory.usage.inputTokens, 0);
    const output = answered.reduce((total, trajectory) => total + trajectory.usage.outputTokens, 0);
    const c = calls / answered.length;
    const o = output / calls;
    const perRollout = input / answered.length;
    const pairs = (c * (c - 1)) / 2;
    const tool = pairs > 0 ? Math.max(0, (perRollout - c * prompts.actorPrompt) / pairs - o) : 0;
    const rewarded = trajectories.filter((trajectory) => trajectory.reward !== undefined);
    const accuracy =
      rewarded.length > 0
        ? rewarded.reduce((total, trajectory) => total + (trajectory.reward ?? 0), 0) / rewarded.length
        : 0.5;
    // Groups with mixed rewards are the ones the critic read: its output per call follows from its total.
    const groups = new Map<string, Set<number>>();
    const groupRewards = new Map<string, number[]>();
    for (const trajectory of rewarded) {
      const rewards = groups.get(trajectory.groupId) ?? new Set<number>();
      rewards.add(trajectory.reward ?? 0);
      groups.set(trajectory.groupId, rewards);
      groupRewards.set(trajectory.groupId, [
        ...(groupRewards.get(trajectory.groupId) ?? []),
        trajectory.reward ?? 0,
      ]);
    }
    const mixed = [...groups.values()].filter((rewards) => rewards.size > 1).length;
    const groupSize = Math.max(1, Math.round(rewarded.length / Math.max(1, groups.size)));
    const usage = await store.getUsageTotals(run.id);
    const criticCalls = mixed * (groupSize + 1);
    const criticOutput = criticCalls > 0 ? (usage.byRole.critic?.outputTokens ?? 0) / criticCalls : undefined;
    const criticInput = criticCalls > 0 ? (usage.byRole.critic?.inputTokens ?? 0) / criticCalls : undefined;
    const versions = (await store.listVersions(domain)).filter((version) => version.version > 0).length;
    const curatorOutput = versions > 0 ? (usage.byRole.curator?.outputTokens ?? 0) / versions : undefined;
    const curatorInput = versions > 0 ? (usage.byRole.curator?.inputTokens ?? 0) / versions : undefined;
    const groupAccuracies = [...groupRewards.values()]
      .filter((rewards) => rewards.length > 1)
      .map((rewards) => rewards.reduce((total, reward) => total + reward, 0) / rewards.length);
    return {
      accuracy: [Math.max(0, accuracy - 0.15), accuracy, Math.min(1, accuracy + 0.15)],
      callsPerRollout: around(c),
      actorOutputPerCall: around(o),
      toolOutputPerCall: around(tool),
      summaryOutput: criticOutput ? around(criticOutput) : defaults.summaryOutput,
      advantageOutput: criticOutput ? around(criticOutput) : defaults.advantageOutput,
      consolidationOutput: curatorOutput ? around(curatorOutput) : defaults.consolidationOutput,
      ...(groupAccuracies.length > 0 ? { groupAccuracies } : {}),
      ...(criticInput ? { criticInputPerCall: around(criticInput) } : {}),
      ...(curatorInput ? { curatorInputPerCall: around(curatorInput) } : {}),
      source: `measured in run ${run.id} (${answered.length} rollouts)`,
    };
  }
  return defaults;
}
