import type { UsageTotals } from "@tfgrpo/protocol";

/** What one learning step did, in numbers: a row of the end-of-run table and of the report's curves. */
export interface StepRecord {
  epoch: number;
  step: number;
  tasks: number;
  rollouts: number;
  trainReward: number;
  groups: number;
  skippedGroups: number;
  proposals: number;
  operations: number;
  headBefore: number | null;
  candidateVersion: number | null;
  headAfter: number | null;
  librarySize: number;
  libraryStates: Record<string, number>;
  candidateScore: number | null;
  headScore: number | null;
  baselineScore: number | null;
  decision: "commit" | "reject" | "no-change";
  gateReason: string;
  meanToolCalls: number;
  meanTokens: number;
  usageByRole: Record<string, UsageTotals>;
}
