/**
 * Sentence forms whose polarity is not carried by a negator inside one clause, rewritten into plain statements before
 * the policy reads a lesson, and the sentences that state no instruction at all (open questions). Plain English, no
 * knowledge of any pitfall:
 *
 * - "Why add one? …": a rhetorical "why" question says not to do it ("do not add one").
 * - "Does +50% then −50% return to the start? No: …": a yes/no question answered "no" denies its content, answered
 *   "yes" asserts it.
 * - "Is your remainder negative? Add m.": an open question names the situation, not an action (see `questionSentences`).
 * - "Was the item replaced? No → reduce the counts": an answer followed by an arrow is a branch ("if not, then …"),
 *   not a denial of the question.
 * - "neither the lower nor the upper one may be skipped": one negation over both, not two that cancel.
 * - "prefer the 2024 report over the 2019 one": what follows "over" is the thing not to prefer.
 * - "Older figures are history": nothing to rewrite here; clauses that judge are read by the lexicon's BAD notion.
 * - "cross-check the figure against the newest release": "against" after a verb of comparing names what to compare
 *   with; it negates nothing (unlike "advise against", "guard against").
 */
const comparedAgainst =
  /\b((?:cross[- ]?)?(?:check|compar|verif|confirm|test|validat|match|weigh|measur|benchmark)\w*(?:\s+[\w'’-]+){0,6}?)\s+against\b/gi;

export function rewritePolarityForms(text: string): string {
  return (
    text
      .replace(/\?\s*(?:no|yes)\s*→\s*/gi, "? Then ")
      .replace(
        /(^|[.!?;]\s+)why\s+(?:bother\s+(?:to\s+|with\s+)?|would\s+you\s+|should\s+you\s+|do\s+you\s+|keep\s+)?([^?]*)\?/gi,
        (_, lead: string, body: string) => `${lead}Do not ${body}.`,
      )
      .replace(
        /(^|[.!?;]\s+)((?:does|do|is|are|was|were|can|could|should|will|would|did|must|has|have)\b[^?]*)\?\s*no\b[,:;.!—–-]*/gi,
        (_, lead: string, question: string) => `${lead}Not ${question.replace(/^\s*/, "")}. `,
      )
      .replace(
        /(^|[.!?;]\s+)((?:does|do|is|are|was|were|can|could|should|will|would|did|must|has|have)\b[^?]*)\?\s*yes\b[,:;.!—–-]*/gi,
        (_, lead: string, question: string) => `${lead}${question}. `,
      )
      .replace(comparedAgainst, "$1 with")
      // "… before giving up", "before you stop helping": a time limit on the instruction, not advice to give up.
      .replace(
        /\bbefore\s+(?:you\s+|they\s+)?(?:give\s+up|giving\s+up|stop\w*|end\w*|quit\w*|abandon\w*|close\w*)/gi,
        "rather than giving up",
      )
      .replace(/\bneither\b([^.;!?]*?)\bnor\b/gi, "not$1or")
      .replace(/\b(prefer(?:s|red|ring)?\b[^.;!?]*?)\bover\b/gi, "$1rather than")
  );
}

/** Split into sentences like the reader does, telling which ones are open questions (they end with "?"). */
export function splitSentences(text: string): { text: string; question: boolean }[] {
  const out: { text: string; question: boolean }[] = [];
  const pattern = /[.!?](?=\s|$)|[;\n]/g;
  let start = 0;
  for (const match of text.matchAll(pattern)) {
    out.push({ text: text.slice(start, match.index), question: match[0] === "?" });
    start = match.index + match[0].length;
  }
  out.push({ text: text.slice(start), question: false });
  return out;
}
