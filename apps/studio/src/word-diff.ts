export interface DiffSegment {
  kind: "same" | "added" | "removed";
  text: string;
}

/** Above this many cells the texts are shown as one removal and one addition (a longest-common-subsequence table). */
const maxCells = 1_000_000;

/**
 * Word-level diff of two texts (longest common subsequence over words): what a reviewer reads to see how a lesson
 * was rewritten. Adjacent segments of one kind are joined; words keep the spaces between them.
 */
export function wordDiff(before: string, after: string): DiffSegment[] {
  const a = before.split(/\s+/).filter(Boolean);
  const b = after.split(/\s+/).filter(Boolean);
  if (a.length * b.length > maxCells) {
    return join([
      ...a.map((text) => ({ kind: "removed" as const, text })),
      ...b.map((text) => ({ kind: "added" as const, text })),
    ]);
  }
  // lengths[i][j]: LCS length of a[i..] and b[j..], in one flat array.
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i * width + j] =
        a[i] === b[j]
          ? lengths[(i + 1) * width + j + 1]! + 1
          : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const segments: DiffSegment[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      segments.push({ kind: "same", text: a[i]! });
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!)
      segments.push({ kind: "removed", text: a[i++]! });
    else segments.push({ kind: "added", text: b[j++]! });
  }
  while (i < a.length) segments.push({ kind: "removed", text: a[i++]! });
  while (j < b.length) segments.push({ kind: "added", text: b[j++]! });
  return join(segments);
}

function join(segments: DiffSegment[]): DiffSegment[] {
  const out: DiffSegment[] = [];
  for (const segment of segments) {
    const last = out.at(-1);
    if (last && last.kind === segment.kind) last.text += ` ${segment.text}`;
    else out.push({ ...segment });
  }
  return out;
}
