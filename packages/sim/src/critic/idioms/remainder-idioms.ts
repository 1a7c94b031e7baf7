import { lineWith } from "./code-view.js";
import type { Idiom } from "./idiom.js";

const floorModulo: Idiom = {
  id: "floor-modulo",
  contrast(loser, winner) {
    const bad = lineWith(loser, /\bfmod\s*\(|\bmath\.remainder\s*\(/);
    const good = lineWith(winner, /[\w)\]]\s+%\s+[\w(]|\bdivmod\s*\(|\bpow\s*\(/);
    return bad && good ? { loser: bad, winner: good } : null;
  },
  suspect(code, problem) {
    const bad = lineWith(code, /\bfmod\s*\(|\bmath\.remainder\s*\(/);
    if (!bad) return null;
    const negative =
      (code.printed ?? "").trim().startsWith("-") ||
      /\s-\s|(?:^|[\s(])-\d|\bnegative\b/i.test(problem) ||
      /\bfmod\s*\(\s*-/.test(code.text);
    return negative ? { loser: bad } : null;
  },
  flag: (m) =>
    `\`${m.loser}\` keeps the sign of the negative dividend, so the remainder came out negative; Python's % gives the residue in 0..m-1`,
  advice: {
    situations: ["taking the remainder of a negative number"],
    actions: [
      "use Python's `%` operator, whose result is never negative when m is positive",
      "reduce with `value % m` so the result is never negative",
      "take `x % m`; for a negative x it still lands in `0..m-1`",
    ],
    avoid: ["using `math.fmod`", "letting the remainder carry the minus sign of the number divided"],
    because: [
      "`math.fmod(-7, 5)` is -2 while `-7 % 5` is 3",
      "`math.fmod` truncates toward zero and keeps the dividend's sign",
    ],
    misguided: [
      "use `math.fmod` so the remainder keeps the sign of the number",
      "let a negative number give a negative remainder, as `math.fmod` does",
    ],
    cues: {
      topic: /\bmod(?:ulo|ular)?\b|\bremainder\b|\bresidue\b|%|\bfmod\b/i,
      right: /\bnever negative\b|\bnonnegative\b|\bnon-negative\b|0 and m - 1|0\.\.m-1|`%`|x % m|value % m/i,
      wrong: /\bkeeps? the sign\b|\bnegative remainder\b|\bmath\.fmod\b(?![^.]*\binstead\b)/i,
    },
  },
};

/** Remainders: Python's `%` gives a residue in 0..m-1, `math.fmod` keeps the dividend's sign. */
export const remainderIdioms: readonly Idiom[] = [floorModulo];
