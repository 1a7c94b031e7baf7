import { mapWithConcurrency } from "@tfgrpo/protocol";
import { trainingGroupId } from "../group-ids.js";
import { rewardGroup } from "../rollouts.js";
import type { LearnDependencies } from "./learn-dependencies.js";
import type { RewardedGroup } from "./rewarded-group.js";

/**
 * The critic rewards each task's group (ground truth, or a majority-vote pseudo-label); rewards go to the store.
 * Infrastructure failures get no reward: the group keeps their count apart.
 */
export function reward({ bus, store, options, runId, train }: LearnDependencies) {
  return async (state: { step: number; batchTaskIds: string[] }) => {
    const groups = await mapWithConcurrency(
      state.batchTaskIds,
      options.concurrency,
      async (taskId): Promise<RewardedGroup> => {
        const groupId = trainingGroupId(runId, state.step, taskId);
        const { rewarded, infrastructureFailures } = await rewardGroup({
          bus,
          store,
          runId,
          task: train.get(taskId),
          groupId,
          groundTruth: options.groundTruth,
        });
        return {
          groupId,
          taskId,
          rewards: rewarded.map((t) => t.reward ?? 0),
          infrastructureFailures: infrastructureFailures.length,
        };
      },
    );
    return { groups };
  };
}
