import { pick } from "../hash.js";
import { wordCount } from "../text/experience-lines.js";
import type { Finding } from "./finding.js";
import { exclusionsOf, fallbackSituations, situationsOf, subjectOf } from "./problem-situation.js";

/**
 * The critic's lesson generator: a situation (from the problem's text, in the critic's words) and an action (from
 * what it concluded), put together by one of several sentence shapes with a few interchangeable connectives. Every
 * choice is a seeded draw of the inputs, so the same mistake is taught in different words in different groups.
 */

export const maxLessonWords = 32;

/** A number in [0, 1) for a labelled choice; the caller seeds it with everything it was given. */
export type Draw = (label: string, ...extra: (string | number)[]) => number;

interface Parts {
  s: string;
  a: string;
  v?: string;
  b?: string;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const shapes: readonly ((p: Parts) => string | null)[] = [
  (p) => `When ${p.s}, ${p.a}.`,
  (p) => (p.v ? `When ${p.s}, ${p.a} instead of ${p.v}.` : null),
  (p) => (p.v ? `For ${p.s}: ${p.a}; avoid ${p.v}.` : null),
  (p) => (p.b ? `If you are ${p.s}, ${p.a}, because ${p.b}.` : null),
  (p) => (p.b ? `Whenever ${p.s}, ${p.a}: ${p.b}.` : null),
  (p) => (p.v ? `In tasks like ${p.s}, ${p.a} rather than ${p.v}.` : null),
  (p) => `${capitalize(p.s)}? ${capitalize(p.a)}.`,
  (p) => (p.b ? `While ${p.s}, make sure to ${p.a}; ${p.b}.` : null),
];

const connectives: readonly [RegExp, readonly string[]][] = [
  [/\bmake sure to\b/, ["be sure to", "take care to"]],
  [/\bbecause\b/, ["since", "as"]],
  [/\binstead of\b/, ["rather than"]],
  [/\bavoid\b/, ["steer clear of", "stay away from"]],
];

function vary(text: string, draw: Draw): string {
  let out = text;
  connectives.forEach(([pattern, options], index) => {
    if (pattern.test(out) && draw("connective", index) < 0.5)
      out = out.replace(pattern, pick(options, draw("connective-word", index)));
  });
  return out;
}

/** `{name}` placeholders of an advice text, filled. */
export function fillIn(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

function valuesFor(finding: Finding, problem: string): Record<string, string> {
  return { subject: subjectOf(problem), ...finding.fill };
}

/** When the lesson applies: the problem's kind of task, or the finding's own situation when it names the subject. */
export function situationFor(finding: Finding, problem: string, draw: Draw): string {
  const fromProblem = finding.usesSubject ? null : situationsOf(problem);
  const pool = [...(fromProblem ?? []), ...finding.advice.situations];
  const options = pool.length > 0 ? pool : fallbackSituations(problem);
  return fillIn(pick(options, draw("situation", finding.key)), valuesFor(finding, problem));
}

function compose(parts: Parts, draw: Draw, label: string): string {
  const fitting = (p: Parts) =>
    shapes
      .map((shape) => shape(p))
      .filter((text): text is string => text !== null)
      .map((text) => vary(text, draw))
      .filter((text) => wordCount(text) <= maxLessonWords);
  // Too long with the optional clauses: drop the reason, then what to avoid.
  const options = [parts, { s: parts.s, a: parts.a, v: parts.v }, { s: parts.s, a: parts.a }]
    .map(fitting)
    .find((texts) => texts.length > 0);
  if (options) return pick(options, draw("shape", label));
  const bare = `When ${parts.s}, ${parts.a}.`;
  return bare.split(/\s+/).slice(0, maxLessonWords).join(" ");
}

/** A lesson teaching the finding: situation first, then the action, maybe what to avoid and why. */
export function writeLesson(finding: Finding, problem: string, draw: Draw): string {
  const values = valuesFor(finding, problem);
  const { advice } = finding;
  const parts: Parts = {
    s: situationFor(finding, problem, draw),
    a: fillIn(pick(advice.actions, draw("action", finding.key)), values),
  };
  if (advice.avoid.length > 0 && draw("with-avoid", finding.key) < 0.7)
    parts.v = fillIn(pick(advice.avoid, draw("avoid", finding.key)), values);
  if (advice.because.length > 0 && draw("with-because", finding.key) < 0.6)
    parts.b = fillIn(pick(advice.because, draw("because", finding.key)), values);
  return compose(parts, draw, finding.key);
}

/** Share of lessons the critic gives a scope to when asked: a model names one when it sees one, not always. */
export const whenNotRate = 0.75;

/**
 * Where the lesson does not apply, one short clause (the prompt's optional `when_not`): a neighbouring situation of
 * the task family the critic saw, or nothing when it has no words for the task or does not bother.
 */
export function writeWhenNot(problem: string, draw: Draw, label: string): string | undefined {
  const options = exclusionsOf(problem);
  if (!options || options.length === 0 || draw("when-not", label) >= whenNotRate) return undefined;
  return pick(options, draw("when-not-which", label));
}

/** Plausible advice pointing the wrong way (contradictory noise), in the same varied shapes. */
export function writeMisguided(finding: Finding, problem: string, draw: Draw): string {
  const values = valuesFor(finding, problem);
  const parts: Parts = {
    s: situationFor(finding, problem, draw),
    a: fillIn(pick(finding.advice.misguided, draw("misguided", finding.key)), values),
  };
  return compose(parts, draw, `misguided-${finding.key}`);
}

const vagueActions = [
  "double-check the work before answering",
  "take care with the details",
  "think through the edge cases",
  "check the result once more",
  "reread the question before giving the final answer",
  "make sure the method fits the question",
  "work step by step and verify each step",
];

function genericSituations(problem: string, domain: "math" | "web"): readonly string[] {
  if (domain === "web") {
    const subject = subjectOf(problem);
    return [`looking up ${subject}`, `answering a question about ${subject}`];
  }
  return situationsOf(problem) ?? fallbackSituations(problem);
}

/** A lesson that sounds useful and says nothing specific. */
export function writeVague(problem: string, draw: Draw, domain: "math" | "web" = "math"): string {
  const situations = genericSituations(problem, domain);
  const s = pick(situations, draw("vague-situation"));
  const v = pick(vagueActions, draw("vague-action"));
  const forms = [`When ${s}, ${v}.`, `${capitalize(v)}.`, `For ${s}: ${v}.`, `Be careful when ${s}.`];
  return pick(forms, draw("vague-form"));
}

const irrelevantHabits: Record<"math" | "web", readonly string[]> = {
  math: [
    "put every import at the top of the program",
    "print intermediate values to follow the computation",
    "store the inputs in a list before looping over them",
    "give variables descriptive names",
    "wrap the computation in a function before running it",
    "convert the inputs to floats first",
  ],
  web: [
    "search with the entity's full name in quotes",
    "ask the search tool for more results",
    "rephrase the query with synonyms before reading pages",
    "prefer results whose title names the entity",
    "search again with fewer keywords",
  ],
};

/** A lesson blaming a cause the evidence does not support (wrong attribution noise). */
export function writeIrrelevant(problem: string, domain: "math" | "web", draw: Draw): string {
  const situations = genericSituations(problem, domain);
  const parts: Parts = {
    s: pick(situations, draw("irrelevant-situation")),
    a: pick(irrelevantHabits[domain], draw("irrelevant-action")),
  };
  return compose(parts, draw, "irrelevant");
}

const rewordings: readonly [RegExp, readonly string[]][] = [
  [/\bWhen\b/, ["Whenever", "If"]],
  [/\bmake sure\b/i, ["ensure", "be sure"]],
  [/\bcheck\b/, ["verify", "confirm"]],
  [/\bverify\b/, ["check", "confirm"]],
  [/\bdo not\b/i, ["never"]],
  [/\bnever\b/, ["do not"]],
  [/\bbefore\b/, ["prior to"]],
  [/\buse\b/, ["apply", "rely on"]],
  [/\balways\b/i, ["consistently"]],
  [/\bproblems\b/, ["tasks", "questions"]],
  [/\bvalue\b/, ["number"]],
  [/\bcount\b/, ["tally"]],
];

/** A light rewording of an existing line (duplicate noise): same meaning, other words. */
export function paraphrase(text: string, draw: Draw): string {
  let out = text.trim();
  rewordings.forEach(([pattern, options], index) => {
    if (pattern.test(out) && draw("reword", index) < 0.6)
      out = out.replace(pattern, pick(options, draw("reword-with", index)));
  });
  if (out === text.trim()) out = `As a rule, ${out.charAt(0).toLowerCase()}${out.slice(1)}`;
  return wordCount(out) <= maxLessonWords ? out : text.trim();
}
