/** Runs of words two texts share, word for word: how a lesson that copies its data is recognised. */

/** Lowercase letters-and-digits words; everything else separates them (the leakage check's tokens). */
export const runWords = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The longest run of consecutive words `lesson` and `source` share (the earliest in `lesson` on ties). */
export function longestSharedRun(source: readonly string[], lesson: readonly string[]): string[] {
  let best = { length: 0, end: 0 };
  // previous[j]: length of the common run ending at lesson[i - 1] and source[j - 1].
  let previous = new Array<number>(source.length + 1).fill(0);
  for (let i = 1; i <= lesson.length; i++) {
    const current = new Array<number>(source.length + 1).fill(0);
    for (let j = 1; j <= source.length; j++) {
      if (lesson[i - 1] !== source[j - 1]) continue;
      current[j] = previous[j - 1]! + 1;
      if (current[j]! > best.length) best = { length: current[j]!, end: i };
    }
    previous = current;
  }
  return lesson.slice(best.end - best.length, best.end);
}
