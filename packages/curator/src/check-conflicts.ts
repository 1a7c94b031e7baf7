import { addUsage, type Experience, type Operation, TfgrpoError, type UsageTotals } from "@tfgrpo/protocol";
import { applyConflictPlan } from "./apply-conflict-plan.js";
import { conflictAnswerSchema, conflictCheckMessages } from "./conflict-check-prompt.js";
import type { CuratorContext } from "./curator-context.js";
import { type ConflictCheck, type ConflictPair, detectConflictPairs } from "./detect-conflict-pairs.js";
import { planConflictResolution } from "./plan-conflict-resolution.js";
import { type ProjectedEntry, projectLibrary } from "./project-library.js";

export interface ConflictSummary {
  pairs: { a: string; b: string; similarity: number; source: "rule" | "model"; reason: string }[];
  groups: { name: string; members: string[] }[];
  archived: string[];
  modelChecks: number;
  unchecked: number;
}

export function emptyConflictSummary(): ConflictSummary {
  return { pairs: [], groups: [], archived: [], modelChecks: 0, unchecked: 0 };
}

/** Model usage summed over one curator call, shared by the steps that spend it. */
export interface UsageTally {
  totals: UsageTotals;
}

/**
 * Conflict check of a library projected through `operations`: pairs by rules and, within a budget, by the model;
 * conflicts resolved on evidence or put in mutual-exclusion groups. Only focused entries (new or rewritten, or all
 * with `focusAll`) are examined. Returns the operations with the resolution applied.
 */
export async function checkConflicts(
  context: CuratorContext,
  library: readonly Experience[],
  operations: readonly Operation[],
  focusAll: boolean,
  usage: UsageTally,
): Promise<{ operations: Operation[]; notes: string[]; summary: ConflictSummary }> {
  const { config } = context;
  const projected = projectLibrary(library, operations);
  const focus = (index: number) => focusAll || projected[index]!.created || projected[index]!.rewritten;
  if (!config.conflicts.enabled || projected.length < 2 || !projected.some((_, index) => focus(index))) {
    return { operations: [...operations], notes: [], summary: emptyConflictSummary() };
  }
  const vectors = await context.embed(projected.map((entry) => entry.text));
  const failures = { count: 0 };
  const detected = await detectConflictPairs({
    entries: projected,
    vectors: projected.map((entry) => vectors.get(entry.text)!),
    focus,
    topicSimilarity: config.conflicts.topicSimilarity,
    ruleScanMinSimilarity: config.conflicts.ruleScanMinSimilarity,
    neighbours: config.conflicts.neighbours,
    maxModelChecks: config.conflicts.maxModelChecks,
    check: modelConflictCheck(context, usage, failures),
    index: { seed: config.indexSeed },
  });
  const plan = planConflictResolution({
    entries: projected,
    pairs: detected.pairs,
    minEvidence: config.lifecycle.minEvidence,
    minContrasts: config.lifecycle.minContrasts,
    alpha: config.lifecycle.alpha,
    margin: config.conflicts.resolveMargin,
    canResolve: (index) => !projected[index]!.created && !projected[index]!.rewritten,
  });
  const applied = applyConflictPlan(
    operations,
    projected,
    plan,
    new Map(library.map((entry) => [entry.id, entry])),
  );
  const notes = [...applied.notes];
  if (failures.count > 0) notes.push(`${failures.count} conflict checks failed (model) and were skipped`);
  if (detected.unchecked > 0)
    notes.push(
      `${detected.unchecked} similar pairs left unchecked (budget ${config.conflicts.maxModelChecks})`,
    );
  const label = (entry: ProjectedEntry) => entry.label;
  return {
    operations: applied.operations,
    notes,
    summary: {
      pairs: detected.pairs.map((pair: ConflictPair) => ({
        a: label(projected[pair.a]!),
        b: label(projected[pair.b]!),
        similarity: pair.similarity,
        source: pair.source,
        reason: pair.reason,
      })),
      groups: plan.groups.map((group) => ({
        name: group.name,
        members: group.members.map((index) => label(projected[index]!)),
      })),
      archived: plan.archive.map((item) => label(projected[item.index]!)),
      modelChecks: detected.modelChecks,
      unchecked: detected.unchecked,
    },
  };
}

/** Asks the curator model whether two entries conflict (cached by their texts); a failed answer counts as none. */
function modelConflictCheck(
  { models, conflictCache }: CuratorContext,
  usage: UsageTally,
  failures: { count: number },
): ConflictCheck {
  return async (a, b) => {
    const key = [a.text, b.text].sort().join("\u0000");
    const cached = conflictCache.get(key);
    if (cached) return cached;
    try {
      const result = await models.structured("curator", {
        messages: conflictCheckMessages(a, b),
        schema: conflictAnswerSchema,
        name: "conflict_check",
        temperature: 0,
      });
      usage.totals = addUsage(usage.totals, result.usage);
      conflictCache.set(key, result.value);
      if (conflictCache.size > 20_000) conflictCache.delete(conflictCache.keys().next().value!);
      return result.value;
    } catch (error) {
      if (!TfgrpoError.hasCode(error, "model_error")) throw error;
      failures.count++;
      return { conflict: false, reason: "model check failed" };
    }
  };
}
