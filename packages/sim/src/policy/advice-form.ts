/**
 * Whether a lesson says anything to do at all. Topic words with no predicate ("weighted mean, class sizes",
 * "inclusive range endpoints") name a subject; a capable reader takes them as a reminder of the topic (vague), not
 * as an instruction, whatever direction the nouns lean. A lesson states advice when it has a verb, a modal or a
 * negation, an arrow or formula that states a result, or is long enough to be a sentence. Plain English, no
 * knowledge of any pitfall.
 */

// Verbs that instruct or state, in their base form; inflections are matched by suffix below.
const verbs = new Set(
  (
    "add adjust answer apply ask assume avoid be beat become calculate call cancel carry change check choose cite " +
    "collect combine compare compute confirm consider convert copy count cover cross decide default deliver derive " +
    "describe discard divide do double drop ensure equal exchange exclude expect fail fall fetch find fix follow " +
    "get give go guess handle have hold identify ignore include keep know lead leave let lie list look lose make " +
    "match matter mean merge modify move multiply need note obtain offer open pass pay pick place prefer print " +
    "process quote read recompute reduce refund reject remember remove repeat replace report request require " +
    "reset restate return round run say search see select send set shift show skip sort split start state stay " +
    "stop subtract sum swap take tell test think transfer treat trust try turn update use verify wait want weigh " +
    "weight win work write yield"
  ).split(" "),
);

const markers =
  /\b(?:must|should|shall|never|always|don't|do not|not|no|only|can|cannot|may|might|will|won't|is|are|was|were|isn't|aren't)\b|[=→⇒≠<>]|->|\?/i;

/** "Weight", "includes", "rounds": the base form or the third person of a verb of the list. */
function isVerb(word: string): boolean {
  if (verbs.has(word)) return true;
  for (const [suffix, replacement] of [
    ["ies", "y"],
    ["es", ""],
    ["s", ""],
  ] as const) {
    if (word.endsWith(suffix) && verbs.has(word.slice(0, -suffix.length) + replacement)) return true;
  }
  return false;
}

/**
 * A sentence-length lesson, or one with a modal, a negation, a copula, a result sign or a label with its statement
 * ("Zero discriminant: one distinct root"), states something. A few words without them are a statement when a verb
 * is among them ("Current questions need current sources"); two or three words are an instruction only when they
 * open with a verb ("Round at the end"): many nouns are also verbs ("class means", "rounding count").
 */
export function statesAdvice(text: string): boolean {
  const words = text.toLowerCase().match(/[a-z][a-z'’-]*/g) ?? [];
  if (words.length >= 6) return true;
  if (markers.test(text) || /[:;]\s*\S/.test(text)) return true;
  if (words.length >= 4) return words.some(isVerb);
  return words.length >= 2 && isVerb(words[0]!);
}
