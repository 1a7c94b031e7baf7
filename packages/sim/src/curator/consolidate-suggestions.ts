import { safeParseJson } from "@tfgrpo/protocol";
import { z } from "zod";
import type { SimNoise } from "../behaviour.js";
import { hashParts, pick, unitFrom } from "../hash.js";
import { between, parseExperienceLines, wordCount } from "../text/experience-lines.js";
import { compareDirections, polarWeight, type Relation } from "./lesson-polarity.js";
import { type TextView, topicLabel, topicSimilarity, viewText } from "./topic-similarity.js";
import { contentWords, isVague, specificity } from "./vagueness.js";

/** `when_not`: where the lesson does not apply, kept from the suggestions it came from (the prompt asks for it). */
export type CuratorOperation =
  | { option: "add"; experience: string; when_not?: string; reason: string }
  | { option: "modify"; experience_id: string; experience: string; when_not?: string; reason: string }
  | { option: "merge"; experience_ids: string[]; experience: string; when_not?: string; reason: string }
  | { option: "delete"; experience_id: string; reason: string }
  | { option: "keep"; experience_id: string; reason: string };

const suggestionSchema = z.array(
  z.looseObject({
    temp_id: z.string().optional(),
    option: z.string(),
    experience_id: z.string().optional().nullable(),
    experience: z.string().optional().nullable(),
    when_not: z.string().optional().nullable(),
    reason: z.string().optional().nullable(),
  }),
);

/** Two texts are on one topic at or above this similarity (embedding or word overlap). */
export const groupingSimilarity = 0.35;
/** ... and two groups join only if their texts are this similar on average. */
export const groupCohesion = 0.3;
/** A suggestion is folded into a library line (merge or keep) only when the two are this similar. */
export const duplicateLineSimilarity = 0.5;

interface LibraryLine {
  id: string;
  view: TextView;
}

/** One vote of the batch: the text of an add/modify, or the text of the line a delete wants gone (flipped). */
interface Item {
  tempId: string;
  option: "add" | "modify" | "delete";
  target: string | null;
  view: TextView;
  /** A delete votes against its line's text. */
  flipped: boolean;
  index: number;
  whenNot?: string;
}

function flip(relation: Relation): Relation {
  return relation === "same" ? "opposite" : relation === "opposite" ? "same" : "unclear";
}

/** Direction of `b` relative to `a`, deletes counted against their line. */
function relate(a: Item | LibraryLine, b: Item | LibraryLine): Relation {
  const relation = compareDirections(a.view.polarity, b.view.polarity).relation;
  const fa = "flipped" in a && a.flipped;
  const fb = "flipped" in b && b.flipped;
  return fa !== fb ? flip(relation) : relation;
}

/** Cuts a text to `limit` words, at a clause boundary when one keeps most of it. */
export function fitWords(text: string, limit: number): string {
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length <= limit) return text;
  const head = words.slice(0, limit);
  for (let i = head.length - 1; i >= Math.ceil(limit * 0.6); i--) {
    if (/[;:,.]$/.test(head[i]!))
      return `${head
        .slice(0, i + 1)
        .join(" ")
        .replace(/[,;:]$/, "")}`.replace(/([^.])$/, "$1.");
  }
  return `${head.join(" ").replace(/[,;:]$/, "")}.`;
}

/** Two texts as one sentence: "A; b". */
function joinClauses(a: string, b: string): string {
  const first = a.trim().replace(/[.!\s]+$/, "");
  const second = b.trim();
  const lowered = /^[A-Z][a-z]/.test(second) ? second[0]!.toLowerCase() + second.slice(1) : second;
  return `${first}; ${lowered.replace(/([^.!?])$/, "$1.")}`;
}

/**
 * The text a group of agreeing lessons becomes: the most specific one that fits the limit (concrete words,
 * numbers, notation, code), or, now and then, the two most specific joined when the second adds concrete content
 * and both fit. Nothing is invented: every word comes from the texts given.
 */
export function chooseMergedText(texts: readonly string[], limit: number, unit: number): string {
  const unique = [...new Set(texts.map((t) => t.trim()))].filter(Boolean);
  const scored = unique
    .map((text) => ({ text, score: specificity(text) - (wordCount(text) > limit ? 100 : 0) }))
    .sort((a, b) => b.score - a.score || a.text.length - b.text.length || a.text.localeCompare(b.text));
  const best = scored[0]!;
  if (best.score < -50) return fitWords(best.text, limit);
  const second = scored[1];
  if (second && unit < 0.35) {
    const have = new Set(contentWords(best.text));
    const adds = new Set(contentWords(second.text).filter((w) => !have.has(w))).size;
    const joined = joinClauses(best.text, second.text);
    if (adds >= 2 && wordCount(joined) <= limit) return joined;
  }
  return best.text;
}

export interface ConsolidateOptions {
  seed: number;
  noise: SimNoise;
}

/**
 * Consolidation from the texts alone. Suggestions are grouped by topic (text similarity and word overlap); inside
 * a group the curator reads which way each text points with its own general reading and keeps the majority; a tie is
 * left alone for the conflict check. Library lines on the group's topic that the majority contradicts are deleted,
 * agreeing ones are merged with the suggestions into one text within the word limit. Vague suggestions are dropped.
 * Nothing here knows whether a lesson would help: a wrong lesson in confident, specific words gets through.
 */
export function consolidateSuggestions(
  prompt: string,
  options: ConsolidateOptions,
): { operations: CuratorOperation[] } {
  const { seed, noise } = options;
  const limit = Number(/at most (\d+) words/i.exec(prompt)?.[1] ?? 32);
  const library: LibraryLine[] = parseExperienceLines(between(prompt, "experience") ?? "")
    .filter((line) => line.id.startsWith("G"))
    .map((line) => ({ id: line.id, view: viewText(line.text) }));
  const byId = new Map(library.map((line) => [line.id, line]));
  const raw = between(prompt, "suggested_updates") ?? "[]";
  const parsed = safeParseJson(raw, suggestionSchema);
  if (!parsed.success) return { operations: [] };
  const draw = (label: string, ...extra: (string | number)[]) =>
    unitFrom("curator", seed, label, raw, ...extra);

  const operations: CuratorOperation[] = [];
  const items: Item[] = [];
  parsed.value.forEach((s, index) => {
    const option = s.option.toLowerCase();
    if (option !== "add" && option !== "modify" && option !== "delete") return;
    const tempId = s.temp_id ?? `P${index + 1}`;
    const target = s.experience_id ?? null;
    if (target !== null && option !== "add" && !byId.has(target)) return; // nothing there to change
    if (option === "delete") {
      if (target === null) return;
      items.push({ tempId, option, target, view: byId.get(target)!.view, flipped: true, index });
      return;
    }
    const text = s.experience?.trim();
    if (!text) return;
    if (isVague(text)) {
      if (option === "add" && draw("keep-vague", tempId) < noise.curator.keepVague)
        operations.push({ option: "add", experience: fitWords(text, limit), reason: "General advice." });
      return;
    }
    items.push({
      tempId,
      option,
      target: option === "modify" ? target : null,
      view: viewText(text),
      flipped: false,
      index,
      ...(s.when_not?.trim() ? { whenNot: s.when_not.trim() } : {}),
    });
  });

  // Topic groups: the closest pairs first; two groups join when a pair links them and they are, on average, on one
  // topic too (so a chain of loosely similar texts does not pull two topics into one).
  const parent = items.map((_, i) => i);
  const find = (i: number): number => {
    let root = i;
    while (parent[root] !== root) root = parent[root]!;
    return root;
  };
  const similarity = items.map((a, i) =>
    items.map((b, j) => {
      if (i === j) return 1;
      if (a.target !== null && a.target === b.target) return 1;
      return topicSimilarity(a.view, b.view);
    }),
  );
  const pairs: [number, number][] = [];
  for (let i = 0; i < items.length; i++)
    for (let j = i + 1; j < items.length; j++)
      if (similarity[i]![j]! >= groupingSimilarity) pairs.push([i, j]);
  pairs.sort((p, q) => similarity[q[0]]![q[1]]! - similarity[p[0]]![p[1]]! || p[0] - q[0] || p[1] - q[1]);
  for (const [i, j] of pairs) {
    const ri = find(i);
    const rj = find(j);
    if (ri === rj) continue;
    const left = items.map((_, k) => k).filter((k) => find(k) === ri);
    const right = items.map((_, k) => k).filter((k) => find(k) === rj);
    let sum = 0;
    for (const a of left) for (const b of right) sum += similarity[a]![b]!;
    if (sum / (left.length * right.length) >= groupCohesion) parent[Math.max(ri, rj)] = Math.min(ri, rj);
  }
  const groups = new Map<number, Item[]>();
  items.forEach((item, i) => {
    const root = find(i);
    groups.set(root, [...(groups.get(root) ?? []), item]);
  });

  // Each library line joins the group it is closest to (its targets first), if any is on its topic.
  const linesOf = new Map<number, LibraryLine[]>();
  for (const line of library) {
    let best: { root: number; score: number } | null = null;
    for (const [root, group] of groups) {
      const targeted = group.some((item) => item.target === line.id);
      const score = targeted
        ? 2
        : Math.max(
            ...group.filter((item) => !item.flipped).map((item) => topicSimilarity(item.view, line.view)),
            0,
          );
      if ((targeted || score >= groupingSimilarity) && (!best || score > best.score)) best = { root, score };
    }
    if (best) linesOf.set(best.root, [...(linesOf.get(best.root) ?? []), line]);
  }

  const deleted = new Set<string>();
  for (const [root, group] of groups) {
    const lines = linesOf.get(root) ?? [];
    // The anchor states its direction most clearly; every other vote is read against it.
    const anchor = [...group].sort(
      (a, b) => polarWeight(b.view.polarity) - polarWeight(a.view.polarity) || a.index - b.index,
    )[0]!;
    const side = new Map<Item, Relation>();
    for (const item of group) side.set(item, item === anchor ? "same" : relate(anchor, item));
    for (const item of group) {
      if (side.get(item) !== "unclear") continue;
      for (const other of group) {
        const known = side.get(other);
        if (other === item || known === "unclear") continue;
        const relation = relate(other, item);
        if (relation === "unclear") continue;
        side.set(item, known === "same" ? relation : flip(relation));
        break;
      }
    }
    const forAnchor = group.filter((item) => side.get(item) === "same").length;
    const against = group.filter((item) => side.get(item) === "opposite").length;
    if (against > 0 && forAnchor === against) continue; // no majority: leave it to the conflict check
    const winning: Relation = forAnchor >= against ? "same" : "opposite";
    const winners = group.filter(
      (item) => side.get(item) === winning || (winning === "same" && side.get(item) === "unclear"),
    );
    const reference = winners.find((item) => !item.flipped) ?? winners[0]!;
    const votes = `${forAnchor + against} suggestion(s), ${Math.max(forAnchor, against)} one way`;

    const supporting = winners.filter((item) => !item.flipped);
    const candidates: LibraryLine[] = [];
    for (const line of lines) {
      if (deleted.has(line.id)) continue;
      const deleteWins = winners.some((item) => item.flipped && item.target === line.id);
      // Only a text says which way a line should point; a lone delete removes just its own target.
      if (!deleteWins && supporting.length === 0) continue;
      // The line against each winning text: contradicted when more of them read it as opposite than as agreeing.
      let opposed = 0;
      let agreed = 0;
      for (const item of supporting) {
        const relation = relate(item, line);
        if (relation === "opposite") opposed++;
        else if (relation === "same") agreed++;
      }
      const modifiedByWinner = supporting.some((item) => item.option === "modify" && item.target === line.id);
      if ((deleteWins || opposed > agreed) && !modifiedByWinner) {
        operations.push({
          option: "delete",
          experience_id: line.id,
          reason:
            deleteWins && against === 0 ? "Removed as suggested." : `Contradicted by this batch: ${votes}.`,
        });
        deleted.add(line.id);
      } else candidates.push(line);
    }
    // The lines the group folds into: the ones a winning suggestion rewrites, else the lines that say nearly the
    // same as a suggestion. A line only loosely on the topic is left alone: merging into it would lose one or the other.
    const targeted = candidates.filter((line) =>
      supporting.some((item) => item.option === "modify" && item.target === line.id),
    );
    const closeness = (line: LibraryLine) =>
      Math.max(...supporting.map((item) => topicSimilarity(item.view, line.view)));
    const sameLines =
      targeted.length > 0
        ? targeted
        : candidates.filter((line) => closeness(line) >= duplicateLineSimilarity);

    if (supporting.length === 0) continue;
    const topic = topicLabel(reference.view.text) || "one topic";
    const reason = `Consolidates ${supporting.length} suggestion(s) on ${topic}.`;
    // A model asked to keep each suggestion's scope copies the first one the group gave.
    const scope = (items: readonly Item[]) => {
      const whenNot = items.find((item) => item.whenNot)?.whenNot;
      return whenNot ? { when_not: whenNot } : {};
    };
    const text = chooseMergedText(
      [...supporting.map((item) => item.view.text), ...sameLines.map((line) => line.view.text)],
      limit,
      draw("join", root),
    );
    if (sameLines.length === 0) {
      if (supporting.length === 1) {
        const only = supporting[0]!;
        operations.push({
          option: "add",
          experience: fitWords(only.view.text, limit),
          ...scope([only]),
          reason,
        });
      } else if (draw("missed-merge", root) < noise.curator.missedMerge) {
        for (const item of supporting)
          operations.push({
            option: "add",
            experience: fitWords(item.view.text, limit),
            ...scope([item]),
            reason,
          });
      } else {
        operations.push({
          option: "merge",
          experience_ids: supporting.map((item) => item.tempId),
          experience: text,
          ...scope(supporting),
          reason,
        });
      }
      continue;
    }
    if (sameLines.length === 1) {
      const line = sameLines[0]!;
      const onlyModifies = supporting.every((item) => item.option === "modify" && item.target === line.id);
      if (text === line.view.text && !onlyModifies) {
        operations.push({ option: "keep", experience_id: line.id, reason: "The library already says this." });
        continue;
      }
      if (onlyModifies) {
        operations.push({
          option: "modify",
          experience_id: line.id,
          experience: text,
          ...scope(supporting),
          reason,
        });
        continue;
      }
    }
    const ids = [...new Set([...sameLines.map((line) => line.id), ...supporting.map((item) => item.tempId)])];
    operations.push({ option: "merge", experience_ids: ids, experience: text, ...scope(supporting), reason });
  }

  if (library.length > 0 && draw("wrong-id") < noise.curator.wrongId) {
    const highest = Math.max(...library.map((line) => Number(line.id.slice(1))));
    const source = pick(library, draw("wrong-text")).view.text;
    operations.push({
      option: "modify",
      experience_id: `G${highest + 3 + (hashParts("curator-wrong", seed, raw) % 5)}`,
      experience: fitWords(source, limit),
      reason: "Tighten wording.",
    });
  }
  return { operations };
}
