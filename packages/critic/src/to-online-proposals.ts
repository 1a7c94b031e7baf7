import type { ExperienceLine, Proposal } from "@tfgrpo/protocol";
import type { OnlineDifference, OnlineReflectionAnswer } from "./prompts/online-reflection-prompt.js";
import { type DroppedOperation, toProposals } from "./to-proposals.js";

export interface ToOnlineProposalsOptions {
  groupId: string;
  /** The task the group is centred on (proposals name one task, as offline). */
  taskId: string;
  experiences: readonly ExperienceLine[];
  /** Default 8 (seed 002 §3.2). */
  maxRules?: number;
  /** Default 32. */
  maxWords?: number;
}

export interface OnlineProposals {
  differences: OnlineDifference[];
  proposals: Proposal[];
  dropped: DroppedOperation[];
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/**
 * The online reflection answer -> proposals for the curator. Rules must follow from the difference table, so an
 * answer with no table row gives none; a rule over the word limit is dropped with its reason (not cut, which could
 * change its meaning); the rest go through the same checks as offline proposals (`toProposals`), capped at N rules.
 */
export function toOnlineProposals(
  answer: OnlineReflectionAnswer,
  options: ToOnlineProposalsOptions,
): OnlineProposals {
  const maxRules = options.maxRules ?? 8;
  const maxWords = options.maxWords ?? 32;
  const differences = answer.differences.filter((row) => row.decision_point.trim() !== "");
  const dropped: DroppedOperation[] = [];
  const kept = answer.rules.filter((rule, index) => {
    if (differences.length === 0) {
      dropped.push({ index, operation: rule, reason: "no difference table row supports it" });
      return false;
    }
    const length = rule.experience === undefined ? 0 : words(rule.experience);
    if (rule.option !== "delete" && length > maxWords) {
      dropped.push({ index, operation: rule, reason: `${length} words, over the limit of ${maxWords}` });
      return false;
    }
    return true;
  });
  const positions = answer.rules.flatMap((rule, index) => (kept.includes(rule) ? [index] : []));
  const mapped = toProposals(kept, {
    groupId: options.groupId,
    taskId: options.taskId,
    experiences: options.experiences,
    maxOperations: maxRules,
  });
  for (const item of mapped.dropped) dropped.push({ ...item, index: positions[item.index] ?? item.index });
  dropped.sort((a, b) => a.index - b.index);
  return { differences, proposals: mapped.proposals, dropped };
}
