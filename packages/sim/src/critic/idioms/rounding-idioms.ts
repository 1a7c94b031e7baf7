import type { CodeView } from "./code-view.js";
import type { Idiom } from "./idiom.js";

function roundingNames(view: CodeView): string[] {
  const names = ["round"];
  view.lines.forEach((line, i) => {
    const def = /^def (\w+)\s*\(/.exec(line);
    if (!def) return;
    const body = view.lines[i + 1] ?? "";
    if (/round|cent|floor|ceil/i.test(def[1]!) || /\b(?:round|floor|ceil|quantize)\s*\(/.test(body))
      names.push(def[1]!);
  });
  return names;
}

/** A line that rounds a value which later lines keep computing with. */
function earlyRounding(view: CodeView): string | null {
  const names = roundingNames(view);
  const call = new RegExp(`(?<![\\w.])(?:${names.join("|")})\\s*\\(|\\.quantize\\s*\\(`);
  const computing = view.lines
    .map((line, index) => ({ line, index }))
    .filter(
      ({ line, index }) =>
        !/^(?:def |return\b|print\s*\()/.test(line) && !/^def /.test(view.lines[index - 1] ?? ""),
    );
  for (let i = 0; i < computing.length - 1; i++) {
    if (call.test(computing[i]!.line) && /^[\w.[\]]+\s*=[^=]/.test(computing[i]!.line))
      return computing[i]!.line;
  }
  return null;
}

function netPercent(view: CodeView): string | null {
  for (const line of view.lines) {
    if (/\(\s*(?:100|1)\s*[+-]\s*[\w.]+(?:\s*\/\s*100)?\s*[+-]\s*[\w.]+(?:\s*\/\s*100)?\s*\)/.test(line))
      return line;
    const m = /\b([A-Za-z_]\w*)\s*[-+]\s*([A-Za-z_]\w*)\s*\*\s*[\w.]+\s*\/\s*100\b/.exec(line);
    if (m && m[1] !== m[2]) return line;
  }
  return null;
}

const lateRounding: Idiom = {
  id: "late-rounding",
  contrast(loser, winner) {
    const bad = earlyRounding(loser);
    return bad && !earlyRounding(winner)
      ? { loser: bad, winner: winner.lines.find((l) => /^print\s*\(/.test(l)) ?? winner.lines.at(-1) ?? "" }
      : null;
  },
  suspect(code, problem) {
    if (!/\bround(?:ed|ing)?\b|\bnearest\b/i.test(problem)) return null;
    const bad = earlyRounding(code);
    return bad ? { loser: bad } : null;
  },
  flag: (m) => `\`${m.loser}\` rounds an intermediate value, and later steps build on the rounded number`,
  advice: {
    situations: ["computing an amount through several steps and rounding the result"],
    actions: [
      "keep full precision through every step and round only the final value",
      "carry exact values (e.g. `Fraction`) through the chain and round once at the end",
      "round a single time, on the final result, never in between",
    ],
    avoid: ["rounding the intermediate amounts", "rounding after each step"],
    because: [
      "rounding in between shifts the final result",
      "each early rounding adds an error that the later steps carry along",
    ],
    misguided: [
      "round the amount to the cent after each step so every figure stays tidy",
      "round every intermediate value before using it again",
    ],
    cues: {
      topic: /\bround|\bprecision\b|\bcents?\b|\bintermediate\b/i,
      right:
        /\bonly (?:the )?final\b|\bonce\b|\bat the end\b|\bfull precision\b|\bexact\b|\bnever in between\b/i,
      wrong: /\bafter (?:each|every) step\b|\bevery intermediate\b|\bround (?:each|every)\b|\bstays? tidy\b/i,
    },
  },
};

const chainedPercent: Idiom = {
  id: "chained-percent",
  contrast(loser, winner) {
    const bad = netPercent(loser);
    if (!bad || netPercent(winner)) return null;
    const good = winner.lines.filter((l) => /\/\s*100\b|\*\s*(?:0?\.\d+|1\.\d+)\b/.test(l));
    return good.length > 0 ? { loser: bad, winner: good.at(-1)! } : null;
  },
  suspect(code, problem) {
    const percents = problem.match(/\d+(?:\.\d+)?\s*(?:%|percent)/g) ?? [];
    if (percents.length < 2 || !/\bthen\b|\blater\b|\bafter\b|\bfollowed\b/i.test(problem)) return null;
    const bad = netPercent(code);
    return bad ? { loser: bad } : null;
  },
  flag: (m) =>
    `\`${m.loser}\` merges the two percentage changes into one change of the original value, but the second change applies to the already changed value`,
  advice: {
    situations: ["applying one percentage change after another"],
    actions: [
      "apply the changes one after the other: multiply by `(1 + a/100)`, then multiply that result by `(1 - b/100)`",
      "take the second percentage of the value after the first change, not of the starting value",
      "chain the factors, `x * (100 + a) / 100 * (100 - b) / 100`, instead of netting the percentages",
    ],
    avoid: [
      "adding the percentages into one net change",
      "taking the second percentage of the original value",
    ],
    because: ["the second change acts on the new value", "percentage changes multiply, they do not add"],
    misguided: [
      "add the percentages into one net change and apply it to the original value",
      "take both percentages of the starting value and combine them",
    ],
    cues: {
      topic: /\bpercent|%|\bsuccessive\b|\bincrease\b|\bdecrease\b/i,
      right:
        /\bone after the other\b|\bchain|\bmultiply|\bnew value\b|\bafter the first\b|\bnot of the (?:starting|original)\b/i,
      wrong:
        /\bnet change\b|\badd the percent|\bof the (?:starting|original) value\b(?!.*\bnot\b)|\bcombine them\b/i,
    },
  },
};

/** Rounding and percentages: round only the final value, chain successive percentage changes. */
export const roundingIdioms: readonly Idiom[] = [lateRounding, chainedPercent];
