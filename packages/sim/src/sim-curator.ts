import { safeParseJson } from "@tfgrpo/protocol";
import { z } from "zod";
import type { SimNoise } from "./behaviour.js";
import { hashParts, pick, unitFrom } from "./hash.js";
import { classifyText, genericLessons } from "./pitfalls/catalog.js";
import type { LessonDirection } from "./pitfalls/concept.js";
import type { Pitfall } from "./pitfalls/pitfall.js";
import { between, parseExperienceLines, wordCount } from "./text/experience-lines.js";

export type CuratorOperation =
  | { option: "add"; experience: string; reason: string }
  | { option: "modify"; experience_id: string; experience: string; reason: string }
  | { option: "merge"; experience_ids: string[]; experience: string; reason: string }
  | { option: "delete"; experience_id: string; reason: string }
  | { option: "keep"; experience_id: string; reason: string };

const suggestionSchema = z.array(
  z.looseObject({
    temp_id: z.string().optional(),
    option: z.string(),
    experience_id: z.string().optional().nullable(),
    experience: z.string().optional().nullable(),
    reason: z.string().optional().nullable(),
  }),
);

interface Proposal {
  tempId: string;
  option: "add" | "modify" | "delete";
  target: string | null;
  text: string | null;
  pitfall: Pitfall | null;
  direction: LessonDirection;
}

interface LibraryEntry {
  id: string;
  text: string;
  pitfall: Pitfall | null;
  direction: LessonDirection;
}

export interface SimCuratorOptions {
  seed: number;
  noise: SimNoise;
}

function fitWords(text: string, limit: number): string {
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length <= limit) return text;
  return `${words
    .slice(0, limit)
    .join(" ")
    .replace(/[,;:]$/, "")}.`;
}

function opposite(direction: LessonDirection): LessonDirection {
  return direction === "helps" ? "hurts" : direction === "hurts" ? "helps" : "neutral";
}

/**
 * The simulated curator. Consolidation groups proposals by the concept they talk about, keeps the direction the
 * majority supports, merges duplicates into one lesson within the word limit, drops vague ones and deletes library
 * lines the batch contradicts. Conflict checks compare two lessons' concept and direction.
 */
export function createSimCurator(options: SimCuratorOptions) {
  const { seed, noise } = options;

  function consolidate(prompt: string): { operations: CuratorOperation[] } {
    const limit = Number(/at most (\d+) words/i.exec(prompt)?.[1] ?? 32);
    const library: LibraryEntry[] = parseExperienceLines(between(prompt, "experience") ?? "")
      .filter((line) => line.id.startsWith("G"))
      .map((line) => {
        const top = classifyText(line.text)[0];
        return { ...line, pitfall: top?.pitfall ?? null, direction: top?.match.direction ?? "neutral" };
      });
    const byId = new Map(library.map((entry) => [entry.id, entry]));
    const raw = between(prompt, "suggested_updates") ?? "[]";
    const parsed = safeParseJson(raw, suggestionSchema);
    if (!parsed.success) return { operations: [] };
    const proposals: Proposal[] = parsed.value.flatMap((s, index): Proposal[] => {
      const option = s.option.toLowerCase();
      if (option !== "add" && option !== "modify" && option !== "delete") return [];
      const text = s.experience ?? null;
      const target = s.experience_id ?? null;
      const source = option === "delete" ? (target ? (byId.get(target)?.text ?? null) : null) : text;
      const top = source ? classifyText(source)[0] : undefined;
      return [
        {
          tempId: s.temp_id ?? `P${index + 1}`,
          option,
          target,
          text,
          pitfall: top?.pitfall ?? null,
          direction: top?.match.direction ?? "neutral",
        },
      ];
    });
    const draw = (label: string, ...extra: (string | number)[]) =>
      unitFrom("curator", seed, label, raw, ...extra);
    const operations: CuratorOperation[] = [];
    const deleted = new Set<string>();

    // Proposals about a concept, grouped; the rest are vague or target ids that do not exist.
    const groups = new Map<string, Proposal[]>();
    for (const proposal of proposals) {
      if (proposal.target !== null && !byId.has(proposal.target)) continue; // wrong id: nothing to modify or delete
      if (!proposal.pitfall) {
        if (proposal.option === "delete" && proposal.target) {
          operations.push({
            option: "delete",
            experience_id: proposal.target,
            reason: "Vague entry without a concrete strategy.",
          });
          deleted.add(proposal.target);
        } else if (
          proposal.option === "add" &&
          proposal.text &&
          draw("keep-vague", proposal.tempId) < noise.curator.keepVague
        ) {
          operations.push({
            option: "add",
            experience: fitWords(proposal.text, limit),
            reason: "General advice.",
          });
        }
        continue;
      }
      const list = groups.get(proposal.pitfall.id) ?? [];
      list.push(proposal);
      groups.set(proposal.pitfall.id, list);
    }

    for (const [, group] of [...groups.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
      const pitfall = group[0]!.pitfall!;
      // A delete votes against the direction of the line it deletes.
      const vote = (p: Proposal): LessonDirection =>
        p.option === "delete" ? opposite(p.direction) : p.direction;
      const helps = group.filter((p) => vote(p) === "helps").length;
      const hurts = group.filter((p) => vote(p) === "hurts").length;
      if (helps === hurts) continue; // no majority: leave it for the conflict check and more evidence
      const winning: LessonDirection = helps > hurts ? "helps" : "hurts";
      const lines = library.filter((entry) => entry.pitfall?.id === pitfall.id && !deleted.has(entry.id));
      for (const line of lines.filter((entry) => entry.direction === opposite(winning))) {
        operations.push({
          option: "delete",
          experience_id: line.id,
          reason: `Contradicted by this batch: ${helps + hurts} proposal(s), ${Math.max(helps, hurts)} the other way.`,
        });
        deleted.add(line.id);
      }
      const supporting = group.filter((p) => p.option !== "delete" && p.direction === winning && p.text);
      const sameLines = lines.filter((entry) => entry.direction === winning || entry.direction === "neutral");
      if (supporting.length === 0) continue;
      const candidates = [...(winning === "helps" ? pitfall.merged : []), ...supporting.map((p) => p.text!)];
      const fitting = candidates.filter((text) => wordCount(text) <= limit);
      const text =
        fitting.length > 0 ? pick(fitting, draw("text", pitfall.id)) : fitWords(candidates[0]!, limit);
      const reason = `Consolidates ${supporting.length} proposal(s) on ${pitfall.title}.`;
      if (sameLines.length === 0) {
        if (supporting.length === 1)
          operations.push({ option: "add", experience: fitWords(supporting[0]!.text!, limit), reason });
        else if (draw("missed-merge", pitfall.id) < noise.curator.missedMerge)
          for (const p of supporting)
            operations.push({ option: "add", experience: fitWords(p.text!, limit), reason });
        else
          operations.push({
            option: "merge",
            experience_ids: supporting.map((p) => p.tempId),
            experience: text,
            reason,
          });
        continue;
      }
      const ids = [...new Set([...sameLines.map((line) => line.id), ...supporting.map((p) => p.tempId)])];
      const onlyModifiesOneLine =
        sameLines.length === 1 &&
        supporting.every((p) => p.option === "modify" && p.target === sameLines[0]!.id);
      if (
        onlyModifiesOneLine ||
        (sameLines.length === 1 && sameLines[0]!.direction === "neutral" && supporting.length === 1)
      )
        operations.push({ option: "modify", experience_id: sameLines[0]!.id, experience: text, reason });
      else operations.push({ option: "merge", experience_ids: ids, experience: text, reason });
    }

    if (library.length > 0 && draw("wrong-id") < noise.curator.wrongId) {
      const highest = Math.max(...library.map((entry) => Number(entry.id.slice(1))));
      operations.push({
        option: "modify",
        experience_id: `G${highest + 3 + (hashParts("curator-wrong", seed, raw) % 5)}`,
        experience: pick(genericLessons.math, draw("wrong-text")),
        reason: "Tighten wording.",
      });
    }
    return { operations };
  }

  function conflict(prompt: string): { conflict: boolean; reason: string } {
    const a = between(prompt, "experience_a") ?? "";
    const b = between(prompt, "experience_b") ?? "";
    const left = classifyText(a);
    const right = classifyText(b);
    for (const l of left) {
      const r = right.find((entry) => entry.pitfall.id === l.pitfall.id);
      if (!r) continue;
      const directions = [l.match.direction, r.match.direction].sort().join("/");
      if (directions === "helps/hurts")
        return { conflict: true, reason: `Both are about ${l.pitfall.title} but give opposite advice.` };
      return {
        conflict: false,
        reason: `Both are about ${l.pitfall.title} and agree; they may be duplicates.`,
      };
    }
    return { conflict: false, reason: "They are about different things." };
  }

  return { consolidate, conflict };
}
