/** One reported outcome of a varied entry, waiting in its stratum for a report of the other arm. */
export interface ArmReport {
  selectionId: string;
  /** true: the entry was shown to the request (exploration arm); false: it was withheld. */
  shown: boolean;
  /** In [0, 1]. */
  reward: number;
}

export type ContrastSettlement =
  /** Both arms met: one difference; the waiting reports are consumed and the new one is not kept. */
  | { difference: number; consumed: string[] }
  /** Only one arm so far: the new report waits with the others. */
  | { difference: null; consumed: [] };

/**
 * The online pairing rule of one varied entry in one stratum of similar tasks (DESIGN section 11, online): live
 * traffic has no group of attempts at one task, so the requests of a stratum that drew the entry into opposite arms
 * stand in for one. A new report joins the stratum's waiting reports; as soon as both arms are present, they make
 * ONE difference, mean reward shown - mean reward withheld, and are all consumed (each report counts in exactly one
 * difference). Which arm a request drew is a fair coin independent of its reward, so the difference is unbiased for
 * the entry's effect even while traffic drifts (a stretch of harder tasks falls on both arms alike), and a stratum
 * keeps the tasks compared alike (the task's difficulty mostly cancels).
 */
export function settleContrast(waiting: readonly ArmReport[], report: ArmReport): ContrastSettlement {
  const all = [...waiting, report];
  const shown = all.filter((item) => item.shown);
  const withheld = all.filter((item) => !item.shown);
  if (shown.length === 0 || withheld.length === 0) return { difference: null, consumed: [] };
  return {
    difference: mean(shown) - mean(withheld),
    consumed: waiting.map((item) => item.selectionId),
  };
}

function mean(reports: readonly ArmReport[]): number {
  return reports.reduce((sum, item) => sum + item.reward, 0) / reports.length;
}

/** The entries a selection varied, each with the arm the request drew: shown (exploration) or withheld. */
export function variedArms(selection: {
  explorationIds: readonly string[];
  withheldIds?: readonly string[];
}): { id: string; shown: boolean }[] {
  return [
    ...selection.explorationIds.map((id) => ({ id, shown: true })),
    ...(selection.withheldIds ?? []).map((id) => ({ id, shown: false })),
  ];
}
