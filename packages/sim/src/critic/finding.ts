/**
 * What the critic concluded about a failure, with the words it may use to teach it. Each finding comes from
 * evidence (a contrast of code or of web steps between attempts, or a suspicious idiom in a failed attempt), never
 * from the attempt's own description of what it did.
 */
export interface Advice {
  /** Gerund phrases for when the lesson applies ("counting ..."), used when the problem text gives none. */
  situations: readonly string[];
  /** Imperative clauses: what to do. */
  actions: readonly string[];
  /** Gerund phrases: what not to do ("averaging the means directly"). */
  avoid: readonly string[];
  /** Clauses: why. */
  because: readonly string[];
  /** Imperative clauses pointing the wrong way: plausible but harmful advice (contradictory noise). */
  misguided: readonly string[];
  /** How the critic recognises a library line on the same topic, and which way it points. */
  cues: { topic: RegExp; right: RegExp; wrong: RegExp };
}

export interface Finding {
  /** Kind of mistake: an idiom id, a web check, or `generic-code`. */
  key: string;
  advice: Advice;
  /** One line of evidence for the operation's reason. */
  evidence: string;
  /** Attempts (1-based indexes) that show the mistake. */
  attempts: number[];
  /** 1 when a contrast between attempts backs it, lower for a suspicion from one attempt. */
  confidence: number;
  /** Web lessons name the looked-up thing ("a company's founding year"): the subject of the problem. */
  usesSubject?: boolean;
  /** Values for `{name}` placeholders of the advice (units, factors). */
  fill?: Record<string, string>;
}
