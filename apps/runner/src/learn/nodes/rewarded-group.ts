/** A task's training rollouts of one step, as the graph state keeps them: ids and rewards only. */
export interface RewardedGroup {
  groupId: string;
  taskId: string;
  rewards: number[];
}
