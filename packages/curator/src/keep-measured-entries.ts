import { type Experience, entryContrast, formatContrast, type Operation } from "@tfgrpo/protocol";

/**
 * A consolidation's delete does not overrule a measurement. When the curator model deletes a live entry whose contrast
 * says it helps (an estimate above zero over at least `minContrasts` groups), the delete is refused and the entry stays
 * for the lifecycle, which moves it by its evidence under stated error rates; one batch's reading of a few
 * trajectories is not that evidence. A delete that goes through carries the entry's contrast in its reason, so the
 * stored move states what was known when it was made.
 */
export function keepMeasuredEntries(
  operations: readonly Operation[],
  library: ReadonlyMap<string, Experience>,
  options: { minContrasts: number },
): { operations: Operation[]; notes: string[] } {
  const notes: string[] = [];
  const kept: Operation[] = [];
  for (const op of operations) {
    const entry = op.op === "delete" ? library.get(op.id) : undefined;
    if (op.op !== "delete" || !entry || entry.status === "archived") {
      kept.push(op);
      continue;
    }
    const interval = entryContrast(entry.stats);
    if (interval.n >= options.minContrasts && interval.estimate > 0) {
      notes.push(
        `${op.id}: delete refused, its contrast ${formatContrast(interval)} says it helps (the lifecycle moves it by evidence): ${op.reason}`,
      );
      continue;
    }
    kept.push(
      interval.n > 0 ? { ...op, reason: `${op.reason} (its contrast ${formatContrast(interval)})` } : op,
    );
  }
  return { operations: kept, notes };
}
