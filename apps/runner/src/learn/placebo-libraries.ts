import { createHash } from "node:crypto";
import {
  type Experience,
  emptyExperienceStats,
  type LibrarySnapshot,
  seededRandom,
  seedFrom,
} from "@tfgrpo/protocol";

/**
 * Placebo libraries: controls that keep something of a learned library (its topics, its words, its size) but not
 * what its lessons say, so a reader sees how much of a library's lift comes from the lessons themselves.
 *
 * - keyword stubs: each entry cut down to a topic stub of at most 3 content words;
 * - shuffled: each entry's situation part joined to another entry's action part (a deterministic derangement), so
 *   every word stays but no lesson pairs a situation with its own advice;
 * - other domain: the lessons of another domain's library (`entriesAsLibrary`).
 *
 * The builders are plain text processing (no model, nothing domain-specific) and deterministic. They are served to
 * the actors in memory (`Runtime.serveLibrary`) under a reserved domain, never written to the store.
 */
export type PlaceboKind = "keyword-stubs" | "shuffled" | "other-domain";

export const placeboKindNames: Record<PlaceboKind, string> = {
  "keyword-stubs": "keyword stubs",
  shuffled: "shuffled",
  "other-domain": "other domain",
};

/** Domains of placebo snapshots start with this; no user library is ever written under it. */
export const placeboDomainPrefix = "tfgrpo-control-";

const stopWords = new Set(
  (
    "a an the and or but nor neither either of in on at to for from by with without within into onto over under " +
    "about as than then when whenever while if unless until before after because since so that this these those " +
    "it its it's they them their there here is are was were be been being has have had do does did don't doesn't " +
    "not no never always only also just each every any all some both more most less least very such own same other " +
    "another you your we our us i me my one ones can could should would must may might will shall which what who " +
    "whom whose how why where use uses using used make makes making ensure ensures check checks checking verify " +
    "consider remember apply applies applying take takes taking keep keeps avoid prefer instead rather first etc " +
    "e.g i.e via per like thing things way ways"
  ).split(" "),
);

/** Words of a text (letters first, then letters, digits, apostrophes or hyphens), in order. */
export function wordsOf(text: string): string[] {
  return text.match(/[A-Za-z][A-Za-z0-9'’-]*/g)?.map((word) => word.replace(/[-'’]+$/, "")) ?? [];
}

/** Words that carry content: not a function word, not an instruction verb, not an adverb in -ly. */
export function contentWords(text: string): string[] {
  return wordsOf(text).filter((word) => {
    const lower = word.toLowerCase();
    return !stopWords.has(lower) && !(lower.length > 4 && lower.endsWith("ly"));
  });
}

/** The opening clause: up to the first comma, colon, semicolon, sentence end or dash. */
function openingClause(text: string): string {
  return text.split(/[,:;.!?]\s|[,:;]|\s[-–—]\s/)[0] ?? text;
}

/**
 * A topic stub of at most `maxWords` content words: the first noun-ish content words of the entry's opening clause
 * (participles in -ed left out when there are others), else of the whole text, else its first word.
 */
export function keywordStub(text: string, maxWords = 3): string {
  for (const source of [openingClause(text), text]) {
    const words = contentWords(source);
    const nounish = words.filter((word) => !/[a-z]ed$/i.test(word));
    const picked = (nounish.length > 0 ? nounish : words).slice(0, maxWords);
    if (picked.length > 0) return picked.join(" ");
  }
  return wordsOf(text)[0] ?? text.trim().split(/\s+/)[0] ?? text;
}

/** An entry split into the situation it names and the action it advises, and how the two were joined. */
export interface LessonParts {
  situation: string;
  separator: string;
  action: string;
}

/**
 * "When …, act" / "For …, act" / "If …, act" -> situation and action at the first comma; "Topic: act" at the colon;
 * otherwise the first half of the words and the second.
 */
export function splitLesson(text: string): LessonParts {
  const trimmed = text.trim();
  const conditional =
    /^((?:when|whenever|for|if|in|on|before|after|while|once|with|unless)\b[^,]*?),\s*(\S[\s\S]*)$/i.exec(
      trimmed,
    );
  if (conditional) return { situation: conditional[1]!, separator: ", ", action: conditional[2]! };
  const colon = trimmed.indexOf(":");
  if (colon > 0 && colon < trimmed.length * 0.6 && trimmed.slice(colon + 1).trim().length > 0) {
    return {
      situation: trimmed.slice(0, colon).trim(),
      separator: ": ",
      action: trimmed.slice(colon + 1).trim(),
    };
  }
  const words = trimmed.split(/\s+/);
  const half = Math.ceil(words.length / 2);
  return { situation: words.slice(0, half).join(" "), separator: " ", action: words.slice(half).join(" ") };
}

/**
 * A deterministic derangement of 0..n-1 (Sattolo's algorithm: one cycle through every index, so no index maps to
 * itself when n >= 2). n < 2 has none: the identity is returned.
 */
export function derangement(n: number, seed: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  const random = seededRandom(seed);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * i);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** Each text reduced to its topic stub. */
export function keywordStubTexts(texts: readonly string[]): string[] {
  return texts.map((text) => keywordStub(text));
}

/**
 * Each text's situation joined to another text's action (a derangement seeded by `seed` and the texts): every word
 * of the library stays, no text keeps its own action. Needs at least two texts.
 */
export function shuffledTexts(texts: readonly string[], seed = 1): string[] {
  if (texts.length < 2) throw new RangeError("a shuffled control needs at least two entries");
  const parts = texts.map(splitLesson);
  const order = derangement(texts.length, seedFrom("shuffled", seed, ...texts));
  return parts.map((part, i) => {
    const action = parts[order[i]!]!.action;
    return action.length === 0 ? part.situation : `${part.situation}${part.separator}${action}`;
  });
}

/** Live (not archived) entries of a snapshot: the ones an actor may be shown, and what a placebo is built from. */
export function liveEntries(snapshot: LibrarySnapshot): Experience[] {
  return snapshot.experiences.filter((entry) => entry.status !== "archived");
}

/**
 * The placebo of a library: its live entries with their texts replaced (status, scope, stats and conflict groups kept,
 * so the actor selects and orders them as it would the originals), under a reserved domain named by its content.
 */
export function placeboOf(
  kind: Exclude<PlaceboKind, "other-domain">,
  source: LibrarySnapshot,
  options: { seed?: number } = {},
): LibrarySnapshot {
  const entries = liveEntries(source);
  const texts = entries.map((entry) => entry.text);
  const replaced = kind === "keyword-stubs" ? keywordStubTexts(texts) : shuffledTexts(texts, options.seed);
  return placeboSnapshot(
    source.version,
    entries.map((entry, i) => ({ ...entry, text: replaced[i]! })),
  );
}

/** Plain `{id: text}` lessons (another domain's library) as a servable snapshot of active entries. */
export function entriesAsLibrary(
  entries: readonly { id: string; text: string }[],
  provenance: { version: number; source: string },
): LibrarySnapshot {
  const at = "1970-01-01T00:00:00.000Z";
  return placeboSnapshot(
    provenance.version,
    entries.map(
      (entry): Experience => ({
        id: entry.id,
        domain: "placeholder",
        text: entry.text,
        status: "active",
        stats: emptyExperienceStats(),
        provenance: { runId: null, version: provenance.version, fromOps: [`control: ${provenance.source}`] },
        history: [],
        createdAt: at,
        updatedAt: at,
      }),
    ),
  );
}

/** A snapshot under `tfgrpo-control-<content hash>`: the same content always gets the same name (actors cache by it). */
function placeboSnapshot(version: number, experiences: readonly Experience[]): LibrarySnapshot {
  const hash = createHash("sha256")
    .update(
      JSON.stringify(experiences.map((e) => [e.id, e.text, e.status, e.stats, e.conflictGroup ?? null])),
    )
    .digest("hex")
    .slice(0, 16);
  const domain = `${placeboDomainPrefix}${hash}`;
  return { domain, version, experiences: experiences.map((entry) => ({ ...entry, domain })) };
}
