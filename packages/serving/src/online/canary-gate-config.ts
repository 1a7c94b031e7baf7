import type { GateConfig } from "@tfgrpo/curator";
import type { OnlineConfig } from "./online-config.js";

/**
 * The offline acceptance gate as the canary uses it: not worse than the head by more than `tolerance`, and the paired
 * test ruling out a loss of `harm` at level `alpha` (the same statistics, on canary outcomes paired by task).
 */
export function canaryGateConfig(rollout: OnlineConfig["rollout"]): GateConfig {
  return {
    mode: "not-worse-within-tolerance",
    margin: 0,
    tolerance: rollout.tolerance,
    precheck: { enabled: false, tasks: 1, tolerance: 1 },
    test: { kind: "paired-t", alpha: rollout.alpha, harm: rollout.harm },
  };
}

/** Looks the rollback rule takes at a canary: one per window until the gate decides. */
export function canaryLooks(rollout: OnlineConfig["rollout"]): number {
  return Math.ceil(rollout.canaryOutcomes / rollout.rollbackWindow);
}
