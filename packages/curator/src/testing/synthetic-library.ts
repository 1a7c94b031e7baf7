import { type Proposal, seededRandom } from "@tfgrpo/protocol";

const conditions = [
  "counting integers in a closed range",
  "a web search returns no results",
  "a geometry problem gives side lengths",
  "probabilities of dependent events are asked",
  "a sequence is defined modulo a prime",
  "the question asks for a date in a table",
  "code output disagrees with the derivation",
  "a polynomial has real parameters",
  "a source page is paywalled",
  "several candidate answers remain",
  "the problem mentions rounding",
  "a tool call times out",
  "units are mixed in the data",
  "the answer must be an integer",
  "an official statistic is requested",
  "an inequality has several cases",
  "a function is defined piecewise",
  "a count involves symmetry",
  "search results come from forums",
  "the task names a specific document",
];
const verbs = [
  "verify",
  "enumerate",
  "check",
  "compute",
  "compare",
  "confirm",
  "test",
  "record",
  "inspect",
  "list",
];
const objects = [
  "both endpoints",
  "small cases",
  "the final answer",
  "every constraint",
  "the official source",
  "all boundary values",
  "the units",
  "each candidate",
  "the table header",
  "the publication date",
  "the residues",
  "the discriminant",
];
const purposes = [
  "before accepting a result",
  "to avoid off-by-one errors",
  "so that extraneous roots are removed",
  "rather than trusting memory",
  "to catch silent tool failures",
  "before generalizing a pattern",
  "so the answer matches the requested format",
  "to keep the search focused",
];
const qualifiers = ["carefully", "systematically", "explicitly", "early", "first", "again"];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

function lesson(random: () => number, negative = false): string {
  const condition = pick(random, conditions);
  const verb = pick(random, verbs);
  const object = pick(random, objects);
  const purpose = pick(random, purposes);
  const qualifier = pick(random, qualifiers);
  const topic = Math.floor(random() * 1000);
  return negative
    ? `When ${condition} (case ${topic}), never ${verb} ${object} ${qualifier}; it wastes steps.`
    : `When ${condition} (case ${topic}), always ${verb} ${object} ${qualifier} ${purpose}.`;
}

/** A paraphrase: one qualifier swapped, so the text stays a near duplicate. */
function paraphrase(random: () => number, text: string): string {
  const from = qualifiers.find((word) => text.includes(` ${word} `));
  if (from)
    return text.replace(
      ` ${from} `,
      ` ${pick(
        random,
        qualifiers.filter((word) => word !== from),
      )} `,
    );
  return text.replace("When ", "Whenever ");
}

/** The same instruction turned around: "always X" <-> "never X". */
function opposite(text: string): string {
  return text.includes(" always ")
    ? text.replace(" always ", " never ")
    : text.replace(" never ", " always ");
}

/**
 * A synthetic library and batch at any scale, for benchmarks and scale tests: templated lessons (condition, action,
 * purpose) with a controlled share of paraphrases (near duplicates) and reversed instructions (conflicts). It is not
 * realistic prose; the real libraries in test-data/youtu-agent-libraries are used for that.
 */
export function syntheticLibrary(options: {
  size: number;
  seed?: number;
  duplicateShare?: number;
  conflictShare?: number;
}): string[] {
  const random = seededRandom(options.seed ?? 1);
  const texts: string[] = [];
  const duplicateShare = options.duplicateShare ?? 0.05;
  const conflictShare = options.conflictShare ?? 0.02;
  while (texts.length < options.size) {
    const roll = random();
    if (texts.length > 10 && roll < duplicateShare) texts.push(paraphrase(random, pick(random, texts)));
    else if (texts.length > 10 && roll < duplicateShare + conflictShare)
      texts.push(opposite(pick(random, texts)));
    else texts.push(lesson(random, random() < 0.1));
  }
  return texts;
}

/**
 * A noisy batch of critic proposals against a library of `librarySize` entries (ids G0..): additions that are fresh,
 * paraphrases of library entries or of each other, reversals of library entries, plus modifies and deletes of random
 * ids (some of them contradicting each other), and a few malformed ones.
 */
export function syntheticProposals(options: {
  count: number;
  library: readonly string[];
  seed?: number;
}): Proposal[] {
  const random = seededRandom(options.seed ?? 2);
  const proposals: Proposal[] = [];
  const added: string[] = [];
  for (let index = 0; proposals.length < options.count; index++) {
    const roll = random();
    const base = {
      proposalId: `p${index}`,
      reason: "synthetic",
      groupId: `g${index % 97}`,
      taskId: `t${index % 89}`,
    };
    const libraryId = Math.floor(random() * Math.max(1, options.library.length));
    if (roll < 0.3 || options.library.length === 0) {
      const text = lesson(random);
      added.push(text);
      proposals.push({ ...base, op: "add", text });
    } else if (roll < 0.5) {
      proposals.push({ ...base, op: "add", text: paraphrase(random, options.library[libraryId]!) });
    } else if (roll < 0.65 && added.length > 0) {
      proposals.push({ ...base, op: "add", text: paraphrase(random, pick(random, added)) });
    } else if (roll < 0.72) {
      proposals.push({ ...base, op: "add", text: opposite(options.library[libraryId]!) });
    } else if (roll < 0.87) {
      proposals.push({
        ...base,
        op: "modify",
        id: `G${libraryId}`,
        text: paraphrase(random, lesson(random)),
      });
    } else if (roll < 0.97) {
      proposals.push({ ...base, op: "delete", id: `G${libraryId}` });
    } else {
      proposals.push({ ...base, op: "modify", id: `G${options.library.length + 5000}` });
    }
  }
  return proposals;
}
