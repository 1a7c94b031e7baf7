import type { Role, Trajectory, Usage, UsageTotals } from "@tfgrpo/protocol";
import type { TrajectoryCompaction } from "./trajectory-compaction.js";

export interface TrajectoryFilter {
  runId?: string;
  epoch?: number;
  step?: number;
  groupId?: string;
  taskId?: string;
  ids?: string[];
  limit?: number;
  offset?: number;
}

/** A usage record of one model call; `id` (e.g. the job id + call index) makes recording it idempotent. */
export type UsageRecord = Usage & { id?: string; at?: string };

export interface UsageReport {
  runId: string;
  total: UsageTotals;
  byRole: Partial<Record<Role, UsageTotals>>;
  byModel: Record<string, UsageTotals>;
}

/**
 * What rollouts leave behind: trajectories and the usage of every model call. Trajectories are upserted by id, last
 * write wins (a reward annotated later replaces the unrewarded copy), except that a copy without a reward never
 * replaces a rewarded one: a result redelivered after its reward phase is a no-op, its reward and `rewardInfo` kept.
 */
export interface TrajectoryStore extends TrajectoryCompaction {
  /**
   * Upsert by id, last write wins unless the stored copy has a reward and the new one has none (then it is kept as
   * it is); one invalid trajectory refuses them all. Returns how many were written (inserted or replaced).
   */
  putTrajectories(trajectories: readonly Trajectory[]): Promise<number>;
  getTrajectory(id: string): Promise<Trajectory | null>;
  /** Ordered by epoch, step, group, attempt, id. */
  listTrajectories(filter: TrajectoryFilter): Promise<Trajectory[]>;
  countTrajectories(filter: TrajectoryFilter): Promise<number>;

  /** Records with an `id` already stored are skipped. Returns how many were inserted. */
  recordUsage(runId: string, records: readonly UsageRecord[]): Promise<number>;
  getUsageTotals(runId: string): Promise<UsageReport>;
}
