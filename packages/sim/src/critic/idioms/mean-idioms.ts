import { type CodeView, lineWith } from "./code-view.js";
import type { Idiom } from "./idiom.js";

const unweightedMean =
  /\bsum\(\s*(\w+)\s*\)\s*(?:\/|,)\s*len\(\s*\1\s*\)|\b(?:statistics\.)?(?:mean|fmean)\(\s*\w+\s*\)/;

function weighted(view: CodeView): string | null {
  return lineWith(view, /\bzip\s*\(|\bsum\([^)]*\w\s*\*\s*\w/);
}

const weightedMean: Idiom = {
  id: "weighted-mean",
  contrast(loser, winner) {
    const bad = lineWith(loser, unweightedMean);
    const good = weighted(winner);
    return bad && good && !weighted(loser) ? { loser: bad, winner: good } : null;
  },
  suspect(code, problem) {
    if (
      !/\bmean\b|\baverage\b/i.test(problem) ||
      !/\b\d+\s+(?:students|people|members|employees|items|players|pupils)\b/i.test(problem)
    )
      return null;
    const bad = lineWith(code, unweightedMean);
    return bad && !weighted(code) ? { loser: bad } : null;
  },
  flag: (m) => `\`${m.loser}\` averages the group means as if every group had the same size`,
  advice: {
    situations: ["combining the averages of groups of different sizes"],
    actions: [
      "weight each group's mean by its size: divide `sum(n * m)` by the total count",
      "add up size times mean for every group and divide by the number of members overall",
      "use the sizes as weights, `sum(n_i * m_i) / sum(n_i)`",
    ],
    avoid: ["averaging the group means directly", "ignoring the group sizes"],
    because: [
      "larger groups pull the overall mean further",
      "a plain mean of means treats every group as equal",
    ],
    misguided: [
      "take the plain average of the group means; the group sizes do not matter",
      "take the plain average of the group averages, one vote per group",
    ],
    cues: {
      topic: /\bmeans?\b|\baverages?\b/i,
      right: /\bweight|\bsizes? as\b|\bsize times\b|sum\(n|\btotal count\b|\bby (?:its|their) sizes?\b/i,
      wrong:
        /\bplain average\b|\bsizes? (?:do|does) not matter\b|\bdirectly\b|\bone vote per\b|\bsimple average\b/i,
    },
  },
};

/** Means: the mean of groups of different sizes weights each group's mean by its size. */
export const meanIdioms: readonly Idiom[] = [weightedMean];
