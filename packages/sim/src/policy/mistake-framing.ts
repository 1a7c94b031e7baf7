/**
 * Lessons that name the mistake before the fix, rewritten so the mistake reads as what not to do and the fix as the
 * instruction. A capable reader takes "It is tempting to A, but B" as advice for B; read clause by clause, A is a
 * plain instruction. Plain English, no knowledge of any pitfall:
 *
 * - "Common trap: A. Instead B", "A classic mistake is to A; B", "Pitfall — A", "Gotcha: A": A is the mistake;
 *   "The usual slip is A — so B", "… A, so B": the mistake ends where its fix begins.
 * - "It is tempting / easy / natural to (think that) A, but B", "You may be tempted to A, but B", "You might think A,
 *   but B", "People often A, but B": A is the mistake, B the advice.
 * - "Wrong: A. Right: B", "Bad: A / Good: B", "Don't: A. Do: B": labelled examples of each.
 * - "Don't be fooled by A": do not trust A.
 * - "Instead, B" and "Rather, B" opening a sentence state B (they contrast with what came before; only "instead of
 *   X" and "rather than X" rule X out).
 *
 * The mistake becomes one clause under "do not" (its inner commas and dashes are dropped), so the reader's negation
 * covers all of it.
 */

const end = String.raw`(?=[.;!?](?:\s|$)|$)`;
const mistakeNoun = `(?:trap|pitfall|mistake|error|gotcha|misconception|misstep|slip|blunder|trap to avoid|failure mode|anti-pattern|bad habit|wrong (?:approach|move|instinct|reflex|turn))`;
const mistakeAdjective = String.raw`(?:(?:a|the|one|another)\s+)?(?:(?:very|most|really)\s+)?(?:common|classic|frequent|typical|usual|big|key|main|easy|popular|subtle|standard|known|recurring|costly|frequent)?\s*`;

// What turns a named mistake into its fix: "— so B", ", so B", "; instead, B", ": therefore B".
const fixFollows = String.raw`\s*(?:[—–,;:]|\s-\s)\s*(so|instead|therefore|hence|thus|rather)\b(?!\s+(?:than|of)\b)[,:]?\s*`;

/** The mistake as one negated clause: its own commas, dashes and parentheses would end the negation's scope. */
function ruledOut(mistake: string): string {
  const flat = mistake
    .replace(/[,:()[\]—–]/g, " ")
    .replace(/\s+-\s+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    // "thinking that", "to assume" are the belief's frame; the belief is what is ruled out.
    .replace(/^(?:to\s+)?/i, "");
  return `Do not ${flat}`;
}

const rules: [RegExp, (...groups: string[]) => string][] = [
  // "Don't be fooled by A" / "Do not be misled by A".
  [
    /\b(?:do not|don't|never)\s+(?:be|get)\s+(?:fooled|misled|tricked|deceived|swayed)\s+by\b/gi,
    () => "do not trust",
  ],
  // "Common trap: A." / "A classic mistake is to A;" / "Pitfall — A." up to the sentence's end, or up to the fix
  // it leads to: "The usual slip is A — so B", "… is A, so B", "… is A; instead B" (B is the advice).
  [
    new RegExp(
      String.raw`(^|[.;!?]\s+|\n)${mistakeAdjective}${mistakeNoun}s?\s*(?:here\s+)?(?:is\s+(?:to\s+|that\s+|when\s+(?:you\s+)?)?|:|—|–|\s-\s)\s*([^.;!?]+?)(?:${fixFollows}|${end})`,
      "gi",
    ),
    (_, lead: string, mistake: string, fix: string | undefined) =>
      `${lead}${ruledOut(mistake)}${fix === undefined ? "" : ". "}`,
  ],
  // "It is tempting to (think that) A, but B" / "You may be tempted to A, but B" / "People often A, but B".
  [
    /(^|[.;!?]\s+|\n)(?:(?:it\s+is|it's|it\s+can\s+be|it\s+may\s+be|it\s+seems)\s+(?:very\s+|so\s+)?(?:tempting|easy|natural|common|intuitive|obvious)\s+to|you\s+(?:may|might|will|could)\s+(?:be\s+tempted\s+to|want\s+to|feel\s+like)|(?:you|many\s+\w+|most\s+\w+|people|solvers|agents|students|beginners)\s+(?:often|usually|tend\s+to|typically|commonly|frequently)|you\s+(?:may|might|could)\s+(?:think|believe|assume|expect|guess))\s+((?:(?:think|believe|assume|suppose|expect|feel|treat)\s+(?:that\s+)?)?[^;]+?)[,;]?\s+(?:but|yet|however)[,:]?\s+/gi,
    (_, lead: string, mistake: string) => `${lead}${ruledOut(mistake)}. `,
  ],
  // "Wrong: A. Right: B", "Bad: A / Good: B", "Don't: A. Do: B", "✗ A ✓ B".
  [
    /(^|[.;!?]\s+|\n|\/\s*)(?:wrong|bad|incorrect|don't|do not|avoid|✗|❌)\s*(?::|—|–|\s-\s)\s*([^.;!?/✓✔]+?)(?=[.;!?/✓✔](?:\s|$)|[✓✔]|$)/gi,
    (_, lead: string, mistake: string) => `${lead}${ruledOut(mistake)}`,
  ],
  [
    /(^|[.;!?]\s+|\n|\/\s*)(?:right|good|correct|do|better|fix|✓|✔|✅)\s*(?::|—|–|\s-\s)\s*/gi,
    (_, lead: string) => lead,
  ],
  // "Instead, B" / "Rather, B" opening a sentence: B is the advice.
  [/(^|[.;!?:]\s+|\n)(?:instead|rather)\b(?!\s+(?:than|of)\b)[,:]?\s*/gi, (_, lead: string) => lead],
];

export function rewriteMistakeFraming(text: string): string {
  let out = text;
  for (const [pattern, replace] of rules)
    out = out.replace(pattern, replace as (...args: string[]) => string);
  return out;
}
