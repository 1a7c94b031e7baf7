import { lineWith } from "./code-view.js";
import type { Idiom } from "./idiom.js";

const exactDivision: Idiom = {
  id: "exact-division",
  contrast(loser, winner) {
    const bad = lineWith(loser, /[\w)\]]\s*\/\/\s*[\w(]/);
    if (!bad || /\/\//.test(winner.text)) return null;
    const good = lineWith(winner, /[\w)\]]\s*\/\s*[\w(]|\bFraction\s*\(/);
    return good ? { loser: bad, winner: good } : null;
  },
  suspect: () => null,
  flag: (m) => `\`${m.loser}\` uses floor division and drops the fractional part`,
  advice: {
    situations: ["dividing quantities that need not divide evenly"],
    actions: [
      "divide exactly with `/` or `Fraction` and round only if the question asks",
      "keep exact quotients, e.g. `Fraction(a, b)`",
    ],
    avoid: ["using `//`", "flooring the quotient"],
    because: ["`//` throws away the fractional part"],
    misguided: ["use `//` so every quotient stays a whole number"],
    cues: {
      topic: /\bdivi|\/\/|\bquotient\b/i,
      right: /\bexact|\bFraction\b/i,
      wrong: /\/\/(?![^.]*\bnot\b)|\bwhole number\b/i,
    },
  },
};

/** Division: `//` drops the fractional part of a quotient that need not be whole. */
export const divisionIdioms: readonly Idiom[] = [exactDivision];
