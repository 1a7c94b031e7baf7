import { stem } from "../text/normalize-text.js";
import { statesAdvice } from "./advice-form.js";
import type { LessonReadingSpec } from "./lesson-reading-spec.js";
import { lexicon, negators } from "./lexicon.js";
import { rewriteMistakeFraming } from "./mistake-framing.js";
import { spellOutNotation } from "./notation.js";
import { rewritePolarityForms, splitSentences } from "./polarity-forms.js";
import { namesAnotherSituation } from "./situation-match.js";

/**
 * How the simulated policy reads one lesson against one pitfall, by meaning: notation and code are spelled out,
 * words are mapped to notions (synonyms, inflections, phrases), negation is scoped to its clause ("never", "don't",
 * "instead of", "neither … nor", "… is a mistake"), and the lesson is matched against the situation and the actions
 * the policy knows for that pitfall. The effect scales with how specific the lesson is: a topic name alone is vague,
 * a short stub counts half, a situation plus an action counts fully.
 */

export type LessonEffect = "helps" | "hurts" | "vague" | "none";

export interface LessonReading {
  effect: LessonEffect;
  /** 0..1: how strongly the lesson acts (1 = a specific, actionable lesson). */
  strength: number;
  /** Helpful minus harmful action cues found (negation applied). */
  score: number;
}

interface Term {
  name: string;
  /** In the clause that says when the lesson applies: names the situation, is no action. */
  situation: boolean;
  sentence: number;
  clause: number;
  /** Index within the sentence. */
  position: number;
  negated: boolean;
  /** In a condition clause inside the sentence ("… when the official source states it"). */
  condition: boolean;
}

interface AnalyzedLesson {
  terms: Term[];
  /** The clauses that state when the lesson applies ("When a customer returns items", "if the order is pending"). */
  situations: string[];
  /** Content words (not notions of negation or stop words): how much the lesson says. */
  contentWords: number;
  present: Set<string>;
}

const stopWords = new Set(
  (
    "a an the of to is are was were be been being for in on at by with and or as it its this that these those from " +
    "into when whenever which so there their them they we you your i will would should must can could do does did " +
    "has have had may might also just very any some such s t if what how our always only each every all both one " +
    "first then than more most much many make sure get gets got way ways thing things often usually simply really"
  ).split(" "),
);

// Words kept although they are stop words: they carry meaning in the lexicon's phrases.
const keptForPhrases = new Set([
  "both",
  "each",
  "every",
  "one",
  "first",
  "all",
  "once",
  "only",
  "than",
  "as",
  "is",
  // "segment or line" must not become the phrase "line segment".
  "or",
]);

const droppedQuantifiers = new Set(["any"]);

interface PhraseEntry {
  tokens: string[];
  notions: string[];
}

function tokenizeWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9²+]+/)
    .filter((word) => word !== "")
    .map((word) => stem(word));
}

let phraseIndex: Map<string, PhraseEntry[]> | undefined;

/** The words of a text the reader matches its phrases on (stemmed, stop words out): a phrase's key. */
export function contentTokens(text: string): string[] {
  return tokenizeWords(text).filter((word) => !stopWords.has(word) || keptForPhrases.has(word));
}

function buildPhraseIndex(excluded: ReadonlySet<string> = new Set()): Map<string, PhraseEntry[]> {
  const byPhrase = new Map<string, Set<string>>();
  const add = (phrase: string, notion: string) => {
    const tokens = contentTokens(phrase);
    if (tokens.length === 0) return;
    // A phrase whose other words are all stop words ("on the segment") would give its last word the phrase's
    // meaning everywhere: such phrases are left out (the lexicon lists the single words it means).
    if (tokens.length === 1 && tokenizeWords(phrase).length > 1) return;
    // "any payment method" without its "any" would be every payment method: a phrase whose meaning rests on a
    // quantifier the stop words drop is left out.
    if (tokenizeWords(phrase).some((word) => droppedQuantifiers.has(word))) return;
    const key = tokens.join(" ");
    if (excluded.has(key)) return;
    const set = byPhrase.get(key) ?? new Set<string>();
    set.add(notion);
    byPhrase.set(key, set);
  };
  for (const [notion, phrases] of Object.entries(lexicon)) for (const phrase of phrases) add(phrase, notion);
  for (const negator of negators) add(negator, "NOT");
  const index = new Map<string, PhraseEntry[]>();
  const negatorStems = new Set(negators.flatMap((negator) => contentTokens(negator)));
  for (const [key, set] of byPhrase) {
    const tokens = key.split(" ");
    // "don't count" means EXCLUDE, and still negates what follows it ("don't count a double root twice").
    const notions = [...set];
    // "skip the discriminant check" negates the check, as "don't" would.
    if (set.has("SKIPPING") || (set.has("EXCLUDE") && tokens.some((token) => negatorStems.has(token))))
      notions.push("NOT");
    const list = index.get(tokens[0]!) ?? [];
    list.push({ tokens, notions });
    index.set(tokens[0]!, list);
  }
  for (const list of index.values()) list.sort((a, b) => b.tokens.length - a.tokens.length);
  return index;
}

const clauseBreak =
  /([,:()[\]{}—–#→]|\bbut\b|\bwhereas\b|\bwhile\b|\botherwise\b|\bthen\b|\bso that\b|\bbecause\b|\bsince\b|\bwhen\b|\bif\b|\bunless\b|\bwhere\b|\biff\b|\bonce\b(?=\s+(?:a|an|the|you|it|they|we|this|that|all|every)\b))/i;

// A clause introduced by one of these inside a sentence is a condition ("count it once when the discriminant is
// zero", "even if it is a root of multiplicity two"): it names the situation, not what to do.
const conditionBreak = /^(?:when|if|unless|once)$/i;

// "b − a drops the last one", "averaging the averages ignores the sizes": a subject that leaves something out or
// skews it, in the third person, describes what goes wrong, so the clause names the thing not to do (as "… is a
// mistake" does).
const describedFault =
  /\S\s+(?:ignores|drops|omits|skips|excludes|loses|misses|discards|neglects|overlooks|forgets|leaves\s+out|leaves\s+off|throws\s+away|double[- ]counts|overcounts|undercounts|overstates|understates|overweights|underweights|inflates|distorts)\b/i;

// A sentence opening with one of these states when the lesson applies; its first clause names the situation.
const situationOpener =
  /^\s*(?:when|whenever|if|for|given|in|with|on|to|before|after|while|unless|once|as|during|whether)\b/i;

function expandContractions(text: string): string {
  return (
    text
      .replace(/[\u2018\u2019]/g, "'")
      .replace(/\bcan't\b|\bcannot\b/gi, "can not")
      .replace(/\bwon't\b/gi, "will not")
      .replace(/n't\b/gi, " not")
      // "a missing line" is an absent one: the thing lacking, not a miss (which judges a clause as a mistake).
      .replace(/\bmissing\b/gi, "absent")
      // "Don't round until the end" means "round only at the end".
      .replace(/\b(?:do not|never|not|avoid)\s+((?:[\w-]+\s+){1,5}?)(?:until|till)\b/gi, "$1 only at")
  );
}

const analyses = new Map<string, AnalyzedLesson>();

/** The notions of a lesson with their negation, sentence by sentence. Cached: libraries repeat in every prompt. */
export function analyzeLesson(text: string): AnalyzedLesson {
  const hit = analyses.get(text);
  if (hit) return hit;
  phraseIndex ??= buildPhraseIndex();
  const analysis = analyzeWith(text, phraseIndex);
  if (analyses.size > 20_000) analyses.clear();
  analyses.set(text, analysis);
  return analysis;
}

function analyzeWith(text: string, index: Map<string, PhraseEntry[]>): AnalyzedLesson {
  const terms: Term[] = [];
  const situations: string[] = [];
  let contentWords = 0;
  const spelled = rewritePolarityForms(rewriteMistakeFraming(expandContractions(spellOutNotation(text))));
  splitSentences(spelled).forEach(({ text: sentence, question }, sentenceIndex) => {
    let position = 0;
    // split() with a capturing group alternates clause, break, clause, …: the break tells a condition clause.
    const parts = sentence.split(clauseBreak);
    const clauses: {
      text: string;
      condition: boolean;
      concession: boolean;
      case: boolean;
      exception: boolean;
    }[] = [];
    for (let k = 0; k < parts.length; k += 2) {
      const clause = parts[k];
      if (clause === undefined || clause.trim() === "") continue;
      // "only if", "exactly when": a restriction that carries the instruction's object, not a condition.
      const before = k > 1 ? parts[k - 2]! : "";
      const restriction = /\b(?:only|exactly|precisely|just)\s*$/i.test(before);
      clauses.push({
        text: clause,
        condition: k > 0 && !restriction && conditionBreak.test(parts[k - 1]!.trim()),
        // "even if every source uses another unit": a concession describes a circumstance, it instructs nothing.
        concession: k > 0 && /\beven\s*$/i.test(before),
        // "Exclusive on both sides → last − first − 1": what opens a sentence (or follows its heading's colon) before an
        // arrow is the case the rest answers; "calculate 1.3 × 0.9 = 1.17 → up 17%" mid-sentence is a result.
        case: parts[k + 1]?.trim() === "→" && (k === 0 || parts[k - 1]?.trim() === ":"),
        // "… unless the order was delivered": the situation where the lesson does not apply.
        exception:
          (k > 0 && /^unless$/i.test(parts[k - 1]!.trim())) || (k === 0 && /^\s*unless\b/i.test(clause)),
      });
    }
    const opensWithSituation = situationOpener.test(sentence) && clauses.length > 1;
    // "When a caller asks to cancel, change, return or exchange an order, read …": the short clauses after an opening
    // situation continue its list; the first long one is the instruction.
    let listing = false;
    clauses.forEach((clause, clauseIndex) => {
      if (clause.exception) return;
      const words = clause.text.trim().split(/\s+/).length;
      const continued = listing && words <= 5 && clauseIndex < clauses.length - 1;
      listing = (opensWithSituation && clauseIndex === 0) || continued;
      if (question || clause.concession || clause.case || clause.condition || listing)
        situations.push(clause.text);
    });
    clauses.forEach(({ text: clause, condition, concession, case: caseClause }, clauseIndex) => {
      const words = contentTokens(clause);
      const clauseTerms: Term[] = [];
      for (let i = 0; i < words.length; ) {
        const word = words[i]!;
        const entry = index
          .get(word)
          ?.find((candidate) => candidate.tokens.every((token, k) => words[i + k] === token));
        const notions = entry ? entry.notions : stopWords.has(word) ? [] : [word];
        const length = entry ? entry.tokens.length : 1;
        for (const name of notions)
          clauseTerms.push({
            name,
            // An open question ("Is your remainder negative?") asks about the situation; it instructs nothing.
            situation: question || concession || caseClause || (opensWithSituation && clauseIndex === 0),
            sentence: sentenceIndex,
            clause: clauseIndex,
            position,
            negated: false,
            condition,
          });
        if (!notions.every((name) => name === "NOT" || name === "FILLER" || name === "OVER"))
          contentWords += entry ? entry.tokens.filter((token) => !stopWords.has(token)).length : 1;
        position++;
        i += length;
      }
      // "gives two distinct roots", "counts as two distinct": a count right before "distinct" says how many distinct
      // values there are; "distinct" is that count's noun there, not an instruction to merge equal values.
      for (let k = clauseTerms.length - 1; k >= 0; k--) {
        const term = clauseTerms[k]!;
        if (
          term.name === "DISTINCT" &&
          clauseTerms.some((other) => other.name === "TWICE" && other.position === term.position - 1)
        )
          clauseTerms.splice(k, 1);
      }
      scopeNegation(clauseTerms, describedFault.test(clause));
      // "A remainder that keeps the sign, as fmod gives, is not the standard answer": a clause that only judges
      // ("is wrong", "is a mistake") judges what the sentence said before it.
      const notions = clauseTerms.filter((term) => /^[A-Z]+$/.test(term.name));
      if (
        notions.some((term) => term.name === "BAD") &&
        notions.every((term) => term.name === "BAD" || term.name === "NOT")
      )
        for (const term of terms)
          if (term.sentence === sentenceIndex && /^[A-Z]+$/.test(term.name)) term.negated = !term.negated;
      terms.push(...clauseTerms);
    });
  });
  return { terms, situations, contentWords, present: new Set(terms.map((term) => term.name)) };
}

/**
 * A negator flips everything after it in its clause; two negators cancel ("don't forget to include"). A clause that
 * calls something a mistake ("excluding the endpoints is a classic error") marks all of it as not to do, except where
 * a negator governs that word itself ("avoid the mistake of ...": one negation, not two).
 */
function scopeNegation(clause: Term[], judged = false): void {
  let parity = false;
  const foundBad = clause.findIndex((term) => term.name === "BAD" || term.name === "DISMISS");
  const badAt = foundBad >= 0 || !judged ? foundBad : 0;
  const cancelled = new Set<number>();
  if (foundBad >= 0) {
    for (let k = badAt - 1; k >= 0 && clause[badAt]!.position - clause[k]!.position <= 3; k--)
      if (clause[k]!.name === "NOT") cancelled.add(k);
  }
  clause.forEach((term, index) => {
    if (term.name === "NOT" || term.name === "OVER") {
      if (!cancelled.has(index)) parity = !parity;
      return;
    }
    term.negated = parity !== badAt >= 0;
  });
}

interface Cue {
  /** The notion whose negation decides the cue's sign (the verb). */
  head: string;
  rest: string[];
  /** A stance ("~DISCRIMINANT": naming it at all points one way) ignores negation and weighs half. */
  unsigned: boolean;
  /** "?DISTINCT": a signed cue that weighs half (a hint, not an instruction). */
  weight: number;
}

const cueCache = new Map<string, Cue>();

function parseCue(text: string): Cue {
  let cue = cueCache.get(text);
  if (!cue) {
    const unsigned = text.startsWith("~");
    const hint = text.startsWith("?");
    const names = text.replace(/^[~?]/, "").split(/\s+/).filter(Boolean);
    cue = { head: names[0]!, rest: names.slice(1), unsigned, weight: unsigned || hint ? 0.5 : 1 };
    cueCache.set(text, cue);
  }
  return cue;
}

const cueWindow = 12;

function inDismissal(analysis: AnalyzedLesson, term: Term): boolean {
  return analysis.terms.some(
    (other) => other.name === "DISMISS" && other.sentence === term.sentence && other.clause === term.clause,
  );
}

/**
 * Whether a negation governs this notion itself: a negator right before it ("ignore the sign of the discriminant",
 * "no need to compute b² − 4ac") or a clause that dismisses ("… does not matter"). A negation farther off
 * ("neither root of a quadratic with negative discriminant is real") bears on the clause's verb, not on it.
 */
function dismissed(analysis: AnalyzedLesson, term: Term): boolean {
  return analysis.terms.some(
    (other) =>
      other.sentence === term.sentence &&
      other.clause === term.clause &&
      (other.name === "BAD" ||
        other.name === "DISMISS" ||
        (other.name === "NOT" && other.position <= term.position && term.position - other.position <= 3)),
  );
}

interface CueMatch {
  head: Term;
  /** How far the cue's other notions lie from its head (a clause boundary counts extra). */
  distance: number;
  /** ±weight: the sign is the cue's reading after negation. */
  vote: number;
}

/** Every occurrence of a cue's head that finds the rest of the cue nearby in its sentence. */
function cueMatches(analysis: AnalyzedLesson, text: string, signed = true): CueMatch[] {
  const cue = parseCue(text);
  if (!analysis.present.has(cue.head) || !cue.rest.every((name) => analysis.present.has(name))) return [];
  const matches: CueMatch[] = [];
  for (const head of analysis.terms) {
    if (head.name !== cue.head || (signed && head.situation)) continue;
    let negated = head.negated;
    let distance = 0;
    let complete = true;
    for (const name of cue.rest) {
      let nearest: Term | undefined;
      let nearestDistance = Number.POSITIVE_INFINITY;
      for (const term of analysis.terms) {
        if (term === head || term.name !== name || term.sentence !== head.sentence) continue;
        // A condition after the instruction ("… when the official source states it") says when, not what: its
        // notions are no object of the instruction.
        if (signed && term.condition && term.clause > head.clause) continue;
        const gap = Math.abs(term.position - head.position);
        if (gap > cueWindow) continue;
        const weighted = gap + (term.clause === head.clause ? 0 : 4);
        if (weighted < nearestDistance) {
          nearest = term;
          nearestDistance = weighted;
        }
      }
      if (!nearest) {
        complete = false;
        break;
      }
      distance += nearestDistance;
      // "Round the final value, not the intermediate ones": a negation over the object in a later clause flips the cue;
      // so does one between the verb and its object in the same clause ("prefer them rather than recent pages").
      if (nearest.clause > head.clause && nearest.negated && !inDismissal(analysis, nearest))
        negated = !negated;
      else if (
        nearest.clause === head.clause &&
        nearest.negated &&
        !head.negated &&
        analysis.terms.some(
          (term) =>
            term.name === "NOT" &&
            term.sentence === head.sentence &&
            term.clause === head.clause &&
            term.position > head.position &&
            term.position <= nearest!.position,
        )
      )
        negated = !negated;
    }
    // A stance under negation says nothing either way ("the sign of the discriminant does not matter" urges
    // nothing; "neither root of a quadratic with negative discriminant is real" still names the check).
    if (complete && !(cue.unsigned && negated && dismissed(analysis, head)))
      matches.push({ head, distance, vote: (negated && !cue.unsigned ? -1 : 1) * cue.weight });
  }
  // One reading per clause: a notion repeated in one clause ("Decimal ... Decimal") is one instruction.
  const byClause = new Map<string, CueMatch>();
  for (const match of matches) {
    const key = `${match.head.sentence}.${match.head.clause}`;
    const best = byClause.get(key);
    // "The answer to a negative number mod m is never negative": the negated occurrence is the statement, the
    // other one names the subject.
    if (
      !best ||
      match.distance < best.distance ||
      (match.distance === best.distance && match.vote < 0 && best.vote > 0)
    )
      byClause.set(key, match);
  }
  return [...byClause.values()];
}

const readings = new Map<string, LessonReading>();
const specIds = new WeakMap<LessonReadingSpec, number>();
let nextSpecId = 0;

export function readLesson(spec: LessonReadingSpec, text: string): LessonReading {
  let id = specIds.get(spec);
  if (id === undefined) {
    id = nextSpecId++;
    specIds.set(spec, id);
  }
  const key = `${id}\u0000${text}`;
  const hit = readings.get(key);
  if (hit) return hit;
  const reading = readUncached(spec, analyzeLesson(text), statesAdvice(text));
  if (readings.size > 50_000) readings.clear();
  readings.set(key, reading);
  return reading;
}

/**
 * The reading without some of the reader's phrases (by key: `contentTokens(phrase).join(" ")`), uncached: what is
 * left of a reading when phrases another role also uses are taken away (reader-independence.test.ts).
 */
export function readLessonWithout(
  spec: LessonReadingSpec,
  text: string,
  excluded: ReadonlySet<string>,
): LessonReading {
  let index = reducedIndexes.get(excluded);
  if (!index) {
    index = buildPhraseIndex(excluded);
    reducedIndexes.set(excluded, index);
  }
  return readUncached(spec, analyzeWith(text, index), statesAdvice(text));
}

const reducedIndexes = new WeakMap<ReadonlySet<string>, Map<string, PhraseEntry[]>>();

function readUncached(spec: LessonReadingSpec, analysis: AnalyzedLesson, advice: boolean): LessonReading {
  let helpful = 0;
  let harmful = 0;
  // Hints and stances ("?DISTINCT", "~DISCRIMINANT") lean one way; an instruction ("EXCLUDE ENDPOINT") says what to do.
  let instructions = 0;
  const count = (vote: number) => {
    if (Math.abs(vote) >= 1) instructions++;
    if (vote > 0) helpful += vote;
    else harmful -= vote;
  };
  // A verb takes one object: where cues share a head occurrence ("use the official page" could match USE OFFICIAL
  // and, through a snippet named earlier, USE SNIPPET), only the nearest reading counts.
  const byHead = new Map<Term, { distance: number; votes: number[] }>();
  for (const [cues, sign] of [
    [spec.helpful, 1],
    [spec.harmful, -1],
  ] as const) {
    for (const cue of cues) {
      const single = parseCue(cue).rest.length === 0;
      for (const match of cueMatches(analysis, cue)) {
        if (single) {
          count(match.vote * sign);
          continue;
        }
        const best = byHead.get(match.head);
        if (!best || match.distance < best.distance)
          byHead.set(match.head, { distance: match.distance, votes: [match.vote * sign] });
        else if (match.distance === best.distance) best.votes.push(match.vote * sign);
      }
    }
  }
  // A cue of two notions or more ("EXCLUDE ENDPOINT") is specific enough to show what the lesson is about.
  const specificCue = byHead.size > 0;
  for (const { votes } of byHead.values()) for (const vote of votes) count(vote);
  // The topic may be named anywhere in the lesson ("Perfect square? Count its root once.").
  const topic = spec.topic.some((cue) => {
    const { head, rest } = parseCue(cue);
    return analysis.present.has(head) && rest.every((name) => analysis.present.has(name));
  });
  const context = spec.context.some((name) => analysis.present.has(name));
  const score = helpful - harmful;
  const acts = helpful + harmful > 0;
  if (!acts) return { effect: topic ? "vague" : "none", strength: topic ? 1 : 0, score: 0 };
  // "When a quadratic has no real roots, include both endpoints": the situation is another trap's, so the action is
  // no advice for this one.
  const situation = new Set(
    analysis.terms.filter((term) => term.situation || term.condition).map((term) => term.name),
  );
  if (namesAnotherSituation(spec, situation)) return { effect: "none", strength: 0, score };
  // Topic words with no predicate ("weighted mean, class sizes") remind of the topic; they instruct nothing.
  if (!advice) {
    const named = topic || context || specificCue;
    return { effect: named ? "vague" : "none", strength: named ? 1 : 0, score };
  }
  // An instruction applies where the lesson names the trap or its situation; a specific cue ("EXCLUDE ENDPOINT")
  // counts as naming the situation only when the lesson says enough to be about something (not a stray phrase).
  if (
    !topic &&
    !context &&
    !(specificCue && instructions > 0 && analysis.contentWords >= 5 && analysis.contentWords <= 14)
  )
    return { effect: "none", strength: 0, score };
  // Hints alone act only on a lesson that names the trap and says something about it, and then only half.
  if (instructions === 0 && !topic) return { effect: "none", strength: 0, score };
  if (instructions === 0 && analysis.contentWords < 5) return { effect: "vague", strength: 1, score };
  if (score === 0) return { effect: "vague", strength: 1, score };
  // A stub ("Discriminant check.") names an action but says too little to act on reliably.
  const stub = analysis.contentWords <= 2;
  const situated = topic && context;
  const strength = stub ? 0 : instructions > 0 && (situated || analysis.contentWords >= 6) ? 1 : 0.5;
  if (strength === 0) return { effect: "vague", strength: 1, score };
  return { effect: score > 0 ? "helps" : "hurts", strength, score };
}
