import { type CodeView, lineWith } from "./code-view.js";
import type { Idiom } from "./idiom.js";

const zeroComparison = /\b[A-Za-z_]\w*\s*(?:>=|<=|==|!=|>|<)\s*0(?![\w.])/;

function comparisonToZero(text: string): string | null {
  return zeroComparison.exec(text)?.[0] ?? null;
}

const realRootsOnly: Idiom = {
  id: "real-roots",
  contrast(loser, winner, problem) {
    if (!/\broots?\b|\bsolutions?\b|\bzeros?\b/i.test(problem)) return null;
    const good = comparisonToZero(winner.text);
    if (!good || comparisonToZero(loser.text)) return null;
    return {
      loser: lineWith(loser, /cmath|\broots\(|len\(/) ?? lineWith(loser, /\+=/) ?? "",
      winner: lineWith(winner, zeroComparison) ?? good,
    };
  },
  suspect(code, problem) {
    if (!/\breal\b/i.test(problem) || !/\broots?\b|\bsolutions?\b/i.test(problem)) return null;
    if (comparisonToZero(code.text)) return null;
    const counted = lineWith(code, /cmath|len\(|\+=\s*2\b/);
    return counted ? { loser: counted } : null;
  },
  flag: (m) =>
    `\`${m.loser}\` counts roots without looking at the sign of the discriminant, so complex roots were counted as real ones`,
  advice: {
    situations: ["counting the real roots of quadratic equations"],
    actions: [
      "look at the sign of the discriminant `b^2 - 4ac` first: a negative one means no real root",
      "count roots only after checking `D >= 0`; a negative discriminant gives complex roots, not real ones",
      "test the discriminant before counting and add nothing when it is below zero",
    ],
    avoid: [
      "counting whatever `cmath` returns",
      "giving every quadratic two roots",
      "counting complex roots as solutions",
    ],
    because: [
      "`cmath.sqrt` of a negative number is imaginary, so those roots are complex",
      "a negative discriminant has no real square root",
    ],
    misguided: [
      "count every root a solver returns, complex ones included",
      "give each quadratic two roots without computing the discriminant",
    ],
    cues: {
      topic: /\broots?\b|\bdiscriminant\b|\bquadratic|\bb\^?2 ?- ?4ac\b/i,
      right:
        /\bsign\b|\bnegative\b|\bno real\b|\bcheck|\btest|\bonly real\b|\bnot real\b|D >= 0|\bbelow zero\b/i,
      wrong:
        /\bcomplex ones included\b|\bevery root\b|\ball (?:the )?roots\b|\btwo roots without\b|\bwithout (?:computing|checking) the discriminant\b|\bskip/i,
    },
  },
};

const distinctRoots: Idiom = {
  id: "distinct-roots",
  contrast(loser, winner, problem) {
    if (!/\bdistinct\b|\bdifferent\b/i.test(problem)) return null;
    const good = lineWith(winner, /==\s*0(?![\w.])/);
    const dedupes = (v: CodeView) => /\bset\(|=\s*\{[^}:]*,[^}:]*\}/.test(v.text);
    if (!good || lineWith(loser, /==\s*0(?![\w.])/) || dedupes(loser)) return null;
    const bad = lineWith(loser, />=\s*0(?![\w.])/) ?? lineWith(loser, /\+=\s*2\b/);
    return bad ? { loser: bad, winner: good } : null;
  },
  suspect(code, problem) {
    if (!/\bdistinct\b/i.test(problem) || !/\broots?\b/i.test(problem)) return null;
    if (/==\s*0(?![\w.])/.test(code.text) || /\bset\(|=\s*\{[^}:]*,[^}:]*\}/.test(code.text)) return null;
    const bad = lineWith(code, />=\s*0(?![\w.])/);
    return bad && lineWith(code, /\+=\s*2\b/) ? { loser: bad } : null;
  },
  flag: (m) =>
    `\`${m.loser}\` adds two roots when the discriminant is zero, but a zero discriminant gives one distinct root`,
  advice: {
    situations: ["counting the distinct roots of quadratics"],
    actions: [
      "count a root once when the discriminant is exactly zero (`D == 0` gives one distinct root)",
      "handle `D == 0` on its own and add one, since both roots coincide",
      "treat a zero discriminant as a single repeated root and count it once",
    ],
    avoid: ["adding two roots when the discriminant is zero", "counting a repeated root twice"],
    because: ["a zero discriminant makes the two roots equal", "equal roots are one distinct value"],
    misguided: [
      "count a repeated root twice, once for each factor",
      "add two roots whenever the discriminant is not negative",
    ],
    cues: {
      topic:
        /\brepeated\b|\bdouble\b|\bdistinct\b|\bcoincid|\bD == 0\b|\bzero discriminant\b|\bdiscriminant (?:is )?(?:exactly )?zero\b/i,
      right: /\bonce\b|\bone distinct\b|\bsingle\b|\bD == 0\b/i,
      wrong: /\btwice\b|\bmultiplicity\b|\btwo roots whenever\b|\bonce for each\b/i,
    },
  },
};

/** Roots of quadratics: only real roots count as real solutions, a double root is one distinct root. */
export const rootIdioms: readonly Idiom[] = [realRootsOnly, distinctRoots];
