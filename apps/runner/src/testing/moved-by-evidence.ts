/**
 * Whether a stored lifecycle move was made on the entry's measured contrast: the lifecycle's harm test ("hurts: ...",
 * "harm confirmed ...", "candidate hurts: ...") or a conflict resolved by the two contrasts ("conflicts with G2, which
 * does better (contrast ..."), each stating a negative contrast. A consolidation's delete is the curator model's
 * reading of one batch, not evidence, even when its reason quotes the entry's contrast.
 */
export function movedByEvidence(reason: string): boolean {
  const byLifecycle = /^(hurts|harm confirmed on probation|candidate hurts): contrast -\d\.\d{3} \[/.test(
    reason,
  );
  const byConflict =
    /^conflicts with \S+, which does better \(contrast [+-]\d\.\d{3} .* vs contrast -\d\.\d{3} /.test(reason);
  return byLifecycle || byConflict;
}
