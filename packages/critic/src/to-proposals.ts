import type { ExperienceLine, Proposal } from "@tfgrpo/protocol";
import type { AdvantageOperation } from "./prompts/advantage-prompt.js";

export interface DroppedOperation {
  /** Position in the model's answer (0-based). */
  index: number;
  operation: AdvantageOperation;
  reason: string;
}

export interface ToProposalsOptions {
  groupId: string;
  taskId: string;
  /** The experiences the model was shown: modify and delete must name one of them. */
  experiences: readonly ExperienceLine[];
  /** Default 3 (the paper's limit per group). */
  maxOperations?: number;
}

/**
 * Maps the model's `{option, experience_id, experience, reason}` operations to protocol Proposals with
 * deterministic ids (`${groupId}:P1`...). Drops, with the reason, operations naming an id that is not among the
 * current experiences, adds and modifies without text, modifies that change nothing, repeats, and everything past
 * the first `maxOperations` usable ones.
 */
export function toProposals(
  operations: readonly AdvantageOperation[],
  options: ToProposalsOptions,
): { proposals: Proposal[]; dropped: DroppedOperation[] } {
  const maxOperations = options.maxOperations ?? 3;
  const current = new Map(options.experiences.map((experience) => [experience.id, experience.text]));
  const proposals: Proposal[] = [];
  const dropped: DroppedOperation[] = [];
  const seen = new Set<string>();

  operations.forEach((operation, index) => {
    const text = cleanText(operation.experience);
    const id = normalizeId(operation.experience_id);
    const reason = operation.reason.trim();
    const key = `${operation.option}|${operation.option === "add" ? "" : id}|${text.toLowerCase()}`;
    const problem = problemWith(operation, id, text, current, seen.has(key));
    if (problem !== null || proposals.length >= maxOperations) {
      dropped.push({ index, operation, reason: problem ?? `more than ${maxOperations} operations` });
      return;
    }
    seen.add(key);
    const whenNot = operation.option === "delete" ? "" : cleanClause(operation.when_not);
    proposals.push({
      proposalId: `${options.groupId}:P${proposals.length + 1}`,
      op: operation.option,
      ...(operation.option !== "add" ? { id: id! } : {}),
      ...(operation.option !== "delete" ? { text } : {}),
      ...(whenNot !== "" ? { whenNot } : {}),
      reason: reason === "" ? "(no reason given)" : reason,
      groupId: options.groupId,
      taskId: options.taskId,
    });
  });
  return { proposals, dropped };
}

function problemWith(
  operation: AdvantageOperation,
  id: string | null,
  text: string,
  current: ReadonlyMap<string, string>,
  repeated: boolean,
): string | null {
  if (operation.option !== "add") {
    if (id === null) return `${operation.option} without an experience id`;
    if (!current.has(id))
      return `${operation.option} names ${id}, which is not among the current experiences`;
  }
  if (operation.option !== "delete" && text === "") return `${operation.option} without experience text`;
  if (operation.option === "modify" && text === cleanText(current.get(id!))) {
    return `modify of ${id} does not change its text`;
  }
  return repeated ? "repeats an earlier operation of the same answer" : null;
}

/** "G3", "[G3]", "g3", "G03" -> "G3"; anything else -> null. */
function normalizeId(value: string | undefined): string | null {
  const match = /^\s*\[?\s*G0*(\d+)\s*\]?\.?\s*$/i.exec(value ?? "");
  return match ? `G${Number(match[1])}` : null;
}

/**
 * The scope clause as a clause: one line, no "Not when"/"Does not apply when" lead-in a model may repeat from the
 * field's name (retrieval compares the situation itself with the task), no trailing period; empty when nothing
 * is left or it merely says "none".
 */
function cleanClause(value: string | null | undefined): string {
  const clause = (value ?? "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^(?:(?:it\s+)?does\s+not\s+apply\s+|not\s+)?(?:when|if|for)\s*:?\s+/i, "")
    .replace(/[.;]+$/, "")
    .trim();
  return /^(?:none|n\/a|null|-|always applies)?$/i.test(clause) ? "" : clause;
}

/** Trims, and drops a leading id the model copied from the experience lines ("[G3]. When ..."). */
function cleanText(value: string | undefined): string {
  return (value ?? "")
    .replace(/^\s*\[G\d+\]\.?\s*/i, "")
    .replace(/\s+/g, " ")
    .trim();
}
