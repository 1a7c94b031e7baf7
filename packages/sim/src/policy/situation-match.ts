import { allPitfalls } from "../pitfalls/catalog.js";
import type { Pitfall } from "../pitfalls/pitfall.js";
import { retailPitfalls } from "../pitfalls/retail-pitfalls.js";
import { assigneeByName } from "../pitfalls/tickets-pitfalls.js";
import type { LessonReadingSpec } from "./lesson-reading-spec.js";

/**
 * Whether the situation a lesson names ("When a quadratic has a negative discriminant, …", "Counting multiples? …",
 * "… if the order was delivered") is another trap's rather than this one's. A lesson applies where its situation
 * holds: "when the discriminant is negative, include both endpoints" is no advice for counting multiples in a range,
 * although its action clause would be. Read against what the policy knows of its domain's traps: the notions of this
 * trap (its topic, context and cues) and those only other traps of the domain have.
 */

const notionsOf = (spec: LessonReadingSpec): Set<string> =>
  new Set(
    [...spec.topic, ...spec.context, ...spec.helpful, ...spec.harmful].flatMap((cue) =>
      cue.replace(/^[~?]/, "").split(/\s+/).filter(Boolean),
    ),
  );

// Notions of the reader's own grammar, never a situation.
const grammar = new Set([
  "NOT",
  "OVER",
  "FILLER",
  "BAD",
  "DISMISS",
  "USE",
  "CHECK",
  "INCLUDE",
  "EXCLUDE",
  "SKIPPING",
]);

interface SituationVocabulary {
  own: Set<string>;
  /** The subjects (topic cues, each a set of notions) of the domain's other traps that this one does not share. */
  foreign: string[][];
}

let vocabularies: WeakMap<LessonReadingSpec, SituationVocabulary> | undefined;

function build(): WeakMap<LessonReadingSpec, SituationVocabulary> {
  const pitfalls: readonly Pitfall[] = [...allPitfalls, ...retailPitfalls, assigneeByName];
  const map = new WeakMap<LessonReadingSpec, SituationVocabulary>();
  // A notion three traps of a domain share ("count", "order", "customer") names the domain, not a situation in it.
  const spread = new Map<string, number>();
  for (const pitfall of pitfalls)
    for (const name of notionsOf(pitfall.reading)) {
      const key = `${pitfall.domain}\u0000${name}`;
      spread.set(key, (spread.get(key) ?? 0) + 1);
    }
  const distinctive = (domain: string, name: string) =>
    !grammar.has(name) && (spread.get(`${domain}\u0000${name}`) ?? 0) < 3;
  for (const pitfall of pitfalls) {
    const own = new Set([...notionsOf(pitfall.reading)].filter((name) => distinctive(pitfall.domain, name)));
    // Another trap's subject, named whole (a topic cue: "DISCRIMINANT", "ENDPOINT DAY"), not single words of its
    // wider context: "before any order lookup" names no situation of the failed-lookup trap, "when the discriminant
    // is negative" names the discriminant's.
    const foreign: string[][] = [];
    for (const other of pitfalls)
      if (other !== pitfall && other.domain === pitfall.domain)
        for (const cue of other.reading.topic) {
          // The cue's distinctive part: "CLOSED COUNT" is named by "closed", "count" being every trap's word.
          const names = cue
            .replace(/^[~?]/, "")
            .split(/\s+/)
            .filter((name) => name !== "" && distinctive(other.domain, name));
          if (names.length > 0 && names.every((name) => !own.has(name))) foreign.push(names);
        }
    map.set(pitfall.reading, { own, foreign });
  }
  return map;
}

/** The situation's notions point at another trap of the domain and not at this one. */
export function namesAnotherSituation(spec: LessonReadingSpec, situation: ReadonlySet<string>): boolean {
  if (situation.size === 0) return false;
  vocabularies ??= build();
  const vocabulary = vocabularies.get(spec);
  if (!vocabulary) return false;
  for (const name of situation) if (!grammar.has(name) && vocabulary.own.has(name)) return false;
  return vocabulary.foreign.some((names) => names.every((name) => situation.has(name)));
}
