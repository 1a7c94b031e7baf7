import type { UsageTotals } from "@tfgrpo/protocol";
import type { TrajectoryStore } from "@tfgrpo/store";

/** Usage totals as one usage record: the store counts the calls itself. */
export function withoutCalls(usage: UsageTotals): Omit<UsageTotals, "calls"> {
  const { calls: _calls, ...rest } = usage;
  return rest;
}

/** Records the model usage a role reported for one call; `id` makes recording it again a no-op. */
export async function recordRoleUsage(
  store: Pick<TrajectoryStore, "recordUsage">,
  runId: string,
  id: string,
  role: "critic" | "curator",
  usage: UsageTotals,
): Promise<void> {
  await store.recordUsage(runId, [{ id, role, model: role, ...withoutCalls(usage) }]);
}
