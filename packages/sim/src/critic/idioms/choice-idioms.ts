import { lineWith } from "./code-view.js";
import type { Idiom } from "./idiom.js";

const squaredDraw = /[\w)]\s*\*\*\s*[2-9]\b|\b(\w+)\s*\*\s*\1\b(?!\s*\()/;
const reducedDraw =
  /\/\s*\(\s*[\w.]+\s*-\s*1\s*\)|\(\s*[\w.]+\s*-\s*1\s*\)\s*\/|\(\s*[\w.]+\s*-\s*1\s*,\s*[\w.]+\s*-\s*1\s*\)|\bcomb\s*\(/;

const unorderedChoice: Idiom = {
  id: "unordered-choice",
  contrast(loser, winner) {
    const bad = lineWith(loser, /\bperm\s*\(|\bpermutations\s*\(/);
    const good = lineWith(winner, /\bcomb\s*\(|\bcombinations\s*\(/);
    return bad && good ? { loser: bad, winner: good } : null;
  },
  suspect(code, problem) {
    if (
      !/\bcommittee\b|\bchoose\b|\bselect|\bsubset\b|\bteam\b|\border (?:does not|doesn't) matter\b|\bhand\b/i.test(
        problem,
      )
    )
      return null;
    const bad = lineWith(code, /\bperm\s*\(|\bpermutations\s*\(/);
    return bad ? { loser: bad } : null;
  },
  flag: (m) =>
    `\`${m.loser}\` counts ordered arrangements, but the problem chooses an unordered group, so divide by the orderings of each group`,
  advice: {
    situations: ["counting ways to choose a group of people or items"],
    actions: [
      "count selections with `math.comb(n, k)`, since reordering the same members gives the same group",
      "use `comb(n, k)` for an unordered choice and keep `perm` for ordered arrangements",
      "divide out the orderings: an unordered pick of k from n is `math.comb(n, k)`",
    ],
    avoid: ["using `math.perm(n, k)`", "counting each ordering of the same group"],
    because: ["`perm` counts every ordering of the same members separately", "a group has no order"],
    misguided: [
      "count with `math.perm(n, k)`, since every pick happens one after another",
      "treat each ordering of the chosen members as a different outcome",
    ],
    cues: {
      topic: /\bcomb\b|\bperm\b|\bchoose\b|\bselect|\border\b|\bcombination|\bpermutation|\bcommittee/i,
      right: /\bcomb\(|\bunordered\b|\border does not matter\b|\bdivide out\b/i,
      wrong:
        /\bperm\(n, k\)(?![^.]*\bordered arrangements\b)|\beach ordering\b.*\bdifferent\b|\bone after another\b/i,
    },
  },
};

const orderedArrangement: Idiom = {
  id: "ordered-arrangement",
  contrast(loser, winner) {
    const bad = lineWith(loser, /\bcomb\s*\(|\bcombinations\s*\(/);
    const good = lineWith(winner, /\bperm\s*\(|\bpermutations\s*\(|\bfactorial\s*\(/);
    return bad && good ? { loser: bad, winner: good } : null;
  },
  suspect(code, problem) {
    if (
      !/\barrange|\bin a row\b|\border matters\b|\branked\b|\bfirst,? second\b|\bpodium\b|\bline up\b/i.test(
        problem,
      )
    )
      return null;
    const bad = lineWith(code, /\bcomb\s*\(|\bcombinations\s*\(/);
    return bad ? { loser: bad } : null;
  },
  flag: (m) => `\`${m.loser}\` counts unordered groups, but the problem's positions make order matter`,
  advice: {
    situations: ["counting the ways to fill distinct positions"],
    actions: [
      "count ordered arrangements with `math.perm(n, k)`",
      "use `perm(n, k)` when swapping two chosen items gives a different outcome",
    ],
    avoid: ["using `math.comb(n, k)`", "treating the arrangement as an unordered group"],
    because: ["`comb` counts each set of items once, whatever its order"],
    misguided: ["count with `math.comb(n, k)`; the order of the picks does not matter"],
    cues: {
      topic: /\bcomb\b|\bperm\b|\barrange|\border\b|\bpermutation|\bcombination/i,
      right: /\bperm\(|\border(?:ed)? (?:matters|arrangements)\b|\bdifferent outcome\b/i,
      wrong: /\bcomb\(n, k\)(?![^.]*\bunordered\b)|\border of the picks does not matter\b/i,
    },
  },
};

const drawsWithoutReplacement: Idiom = {
  id: "draws-without-replacement",
  contrast(loser, winner) {
    const bad = lineWith(loser, squaredDraw);
    const good = lineWith(winner, reducedDraw);
    return bad && good && !reducedDraw.test(loser.text) ? { loser: bad, winner: good } : null;
  },
  suspect(code, problem) {
    if (
      !/\bwithout replacement\b|\bnot replaced\b|\bwithout (?:putting|returning)\b|\bat the same time\b|\bat once\b/i.test(
        problem,
      )
    )
      return null;
    const bad = lineWith(code, squaredDraw);
    return bad && !reducedDraw.test(code.text) ? { loser: bad } : null;
  },
  flag: (m) =>
    `\`${m.loser}\` treats the draws as independent, as if each item were put back before the next draw`,
  advice: {
    situations: ["drawing several items without putting them back"],
    actions: [
      "after each draw take one off the red count and one off the total: the chance of two is `r/n * (r-1)/(n-1)`",
      "update the numerator and the denominator after every draw instead of squaring one probability",
      "multiply `r/n` by `(r-1)/(n-1)` for the second draw",
    ],
    avoid: ["squaring the single-draw probability", "treating the draws as independent"],
    because: [
      "each draw removes an item, so the second chance is different",
      "no item goes back before the next draw",
    ],
    misguided: [
      "square the one-draw probability `(r/n)**2`, the draws being independent",
      "treat every draw as independent with the same chance",
    ],
    cues: {
      topic: /\bdraw|\breplacement\b|\bput(?:ting)? (?:them |it )?back\b|\bwithout replac/i,
      right:
        /\(r-1\)\/\(n-1\)|\blower both counts\b|\bupdate the numerator\b|\bremoves?\b|\bwithout replacement\b/i,
      wrong: /\bsquare\b|\*\*2|\bindependent\b(?![^.]*\binstead\b)/i,
    },
  },
};

/** Choices and draws: `comb` for unordered groups, `perm` for ordered ones, draws without replacement. */
export const choiceIdioms: readonly Idiom[] = [unorderedChoice, orderedArrangement, drawsWithoutReplacement];
