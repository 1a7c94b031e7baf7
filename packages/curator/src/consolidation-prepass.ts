import type { Experience, MergeOperation, Proposal } from "@tfgrpo/protocol";
import { compareExperienceIds } from "./credit-deltas.js";
import { instructionSignatures, oppositeAction } from "./opposite-phrasings.js";
import { createSimilarityIndex, type SimilarityIndexOptions } from "./similarity-index.js";
import { normalizeText } from "./text-tokens.js";
import { createUnionFind } from "./union-find.js";
import { isVagueLesson } from "./vague-lesson.js";
import { countWords, enforceWordLimit } from "./word-limit.js";

/** One line of `<suggested_updates>`: what is left of a batch's proposals after the deterministic pre-pass. */
export interface Suggestion {
  /** P1, P2, ...: how the model refers to it. */
  tempId: string;
  option: "add" | "modify" | "delete";
  targetId?: string;
  text?: string;
  /** Where the lesson does not apply (the proposals' `whenNot`): carried onto the entry's `scope.whenNot`. */
  whenNot?: string;
  reason: string;
  /**
   * Proposal ids this suggestion stands for (several when duplicates were collapsed); empty for the curator's own
   * request to rewrite a library entry that is over the word limit.
   */
  sources: string[];
}

export interface PrepassInput {
  /** The base library version, archived entries included. */
  library: readonly Experience[];
  proposals: readonly Proposal[];
  /** Embedding of every text in play (live library texts and proposal texts), by text. */
  embeddings: ReadonlyMap<string, ArrayLike<number>>;
  wordLimit: number;
  nearDuplicateSimilarity: number;
  /** See isVagueLesson; default 0 (no vagueness check). */
  minContentWords?: number;
  /** Also merge near-duplicate entries already in the library. */
  mergeLibraryDuplicates?: boolean;
  /** Ask the model to rewrite live entries over the word limit (default true). */
  rewriteOverLimit?: boolean;
  index?: SimilarityIndexOptions;
}

export interface PrepassResult {
  suggestions: Suggestion[];
  /** Deterministic merges of near-duplicate library entries (no model needed). */
  libraryMerges: MergeOperation[];
  /** One line per proposal that was dropped or folded, and why. */
  notes: string[];
  stats: {
    proposals: number;
    suggestions: number;
    dropped: number;
    collapsed: number;
    libraryMerges: number;
  };
}

interface Candidate {
  option: "add" | "modify";
  targetId?: string;
  text: string;
  whenNot?: string;
  reason: string;
  sources: string[];
}

const scopeOf = (whenNot: string | undefined) => (whenNot ? { whenNot } : {});

const conditionStart = /^(when|whenever|for|if|in|before|after|during|while|once|unless)\b/i;

function bestText<T extends { text: string; sources?: string[] }>(items: readonly T[], wordLimit: number): T {
  return [...items].sort((a, b) => {
    const fitsA = countWords(a.text) <= wordLimit ? 0 : 1;
    const fitsB = countWords(b.text) <= wordLimit ? 0 : 1;
    return (
      fitsA - fitsB ||
      (b.sources?.length ?? 0) - (a.sources?.length ?? 0) ||
      Number(!conditionStart.test(a.text)) - Number(!conditionStart.test(b.text)) ||
      countWords(a.text) - countWords(b.text)
    );
  })[0]!;
}

/**
 * The deterministic part of consolidation (paper stage 3), so the model sees less:
 * 1. drops malformed proposals and those naming unknown or archived ids (a modify of an unknown id becomes an add);
 * 2. resolves contradictory proposals on one id (delete vs modify: the majority wins, a tie keeps the entry);
 * 3. collapses exact duplicates (same words, any case or punctuation) and near duplicates (embedding similarity at or
 *    above the threshold, but never two texts giving opposite instructions) into one suggestion with all its sources;
 * 4. drops additions the library already holds, and merges near-duplicate library entries deterministically.
 * Every dropped or folded proposal is accounted for in `notes`.
 */
export function consolidationPrepass(input: PrepassInput): PrepassResult {
  const notes: string[] = [];
  let dropped = 0;
  let collapsed = 0;
  const live = input.library.filter((entry) => entry.status !== "archived");
  const byId = new Map(input.library.map((entry) => [entry.id, entry]));
  const liveText = new Map<string, string>();
  for (const entry of live)
    if (!liveText.has(normalizeText(entry.text))) liveText.set(normalizeText(entry.text), entry.id);
  const archivedText = new Map<string, Experience>();
  for (const entry of input.library)
    if (entry.status === "archived") archivedText.set(normalizeText(entry.text), entry);

  // 1. Validate each proposal against the library.
  const adds: Candidate[] = [];
  const modifiesById = new Map<string, Candidate[]>();
  const deletesById = new Map<string, Proposal[]>();
  for (const proposal of input.proposals) {
    const text = proposal.text?.replace(/\s+/g, " ").trim();
    if (text && proposal.op !== "delete" && isVagueLesson(text, input.minContentWords ?? 0)) {
      notes.push(`${proposal.proposalId}: too vague to act on ("${text.slice(0, 60)}"), dropped`);
      dropped++;
      continue;
    }
    if (proposal.op === "add") {
      if (!text) {
        notes.push(`${proposal.proposalId}: add without text, dropped`);
        dropped++;
        continue;
      }
      adds.push({
        option: "add",
        text,
        ...scopeOf(proposal.whenNot),
        reason: proposal.reason,
        sources: [proposal.proposalId],
      });
      continue;
    }
    const target = proposal.id ? byId.get(proposal.id) : undefined;
    if (!proposal.id || !target || target.status === "archived") {
      const what = !proposal.id
        ? "no id"
        : !target
          ? `unknown id ${proposal.id}`
          : `${proposal.id} is archived`;
      if (proposal.op === "modify" && text) {
        notes.push(`${proposal.proposalId}: modify of ${what}: kept as a new entry`);
        adds.push({
          option: "add",
          text,
          ...scopeOf(proposal.whenNot),
          reason: proposal.reason,
          sources: [proposal.proposalId],
        });
      } else {
        notes.push(`${proposal.proposalId}: ${proposal.op} of ${what}, dropped`);
        dropped++;
      }
      continue;
    }
    if (proposal.op === "delete") {
      const list = deletesById.get(target.id) ?? [];
      list.push(proposal);
      deletesById.set(target.id, list);
      continue;
    }
    if (!text) {
      notes.push(`${proposal.proposalId}: modify ${target.id} without text, dropped`);
      dropped++;
      continue;
    }
    if (normalizeText(text) === normalizeText(target.text)) {
      notes.push(`${proposal.proposalId}: modify ${target.id} does not change its text, dropped`);
      dropped++;
      continue;
    }
    const list = modifiesById.get(target.id) ?? [];
    list.push({
      option: "modify",
      targetId: target.id,
      text,
      ...scopeOf(proposal.whenNot),
      reason: proposal.reason,
      sources: [proposal.proposalId],
    });
    modifiesById.set(target.id, list);
  }

  // 2. Contradictory proposals on one id: count the groups on each side.
  const deleteSuggestions: Suggestion[] = [];
  for (const id of new Set([...modifiesById.keys(), ...deletesById.keys()])) {
    const modifies = modifiesById.get(id) ?? [];
    const deletes = deletesById.get(id) ?? [];
    if (deletes.length > 0 && modifies.length > 0) {
      if (deletes.length > modifies.length) {
        notes.push(
          `${id}: ${deletes.length} proposals delete it, ${modifies.length} modify it: delete wins, ${modifies.flatMap((m) => m.sources).join(", ")} dropped`,
        );
        dropped += modifies.length;
        modifiesById.delete(id);
      } else {
        notes.push(
          `${id}: ${modifies.length} proposals modify it, ${deletes.length} delete it: the entry is kept, ${deletes.map((d) => d.proposalId).join(", ")} dropped`,
        );
        dropped += deletes.length;
        deletesById.delete(id);
      }
    }
    const remaining = deletesById.get(id);
    if (remaining && remaining.length > 0) {
      if (remaining.length > 1) collapsed += remaining.length - 1;
      deleteSuggestions.push({
        tempId: "",
        option: "delete",
        targetId: id,
        reason:
          remaining.length > 1
            ? `${remaining[0]!.reason} (${remaining.length} proposals)`
            : remaining[0]!.reason,
        sources: remaining.map((d) => d.proposalId),
      });
    }
  }

  // 3a. Exact duplicates: one candidate per (kind, target, normalised text).
  const exact = new Map<string, Candidate>();
  const collapseExact = (candidate: Candidate) => {
    const key = `${candidate.option}:${candidate.targetId ?? ""}:${normalizeText(candidate.text)}`;
    const seen = exact.get(key);
    if (seen) {
      seen.sources.push(...candidate.sources);
      seen.whenNot ??= candidate.whenNot;
      collapsed++;
      return;
    }
    exact.set(key, { ...candidate, sources: [...candidate.sources] });
  };
  for (const add of adds) {
    const normal = normalizeText(add.text);
    const existing = liveText.get(normal);
    if (existing) {
      notes.push(`${add.sources.join(", ")}: repeats ${existing}, dropped`);
      dropped += add.sources.length;
      continue;
    }
    const archived = archivedText.get(normal);
    if (archived) {
      const why = archived.history.at(-1)?.reason;
      notes.push(
        `${add.sources.join(", ")}: repeats archived ${archived.id}${why ? ` (archived: ${why})` : ""}, dropped`,
      );
      dropped += add.sources.length;
      continue;
    }
    collapseExact(add);
  }
  for (const list of modifiesById.values()) for (const modify of list) collapseExact(modify);

  // 3b. Near duplicates through the similarity index (nodes: live library entries, then candidates).
  const candidates = [...exact.values()];
  const libraryNodes = live.filter((entry) => input.embeddings.has(entry.text));
  const nodeText = [
    ...libraryNodes.map((entry) => entry.text),
    ...candidates.map((candidate) => candidate.text),
  ];
  const vectors = nodeText.map((text) => {
    const vector = input.embeddings.get(text);
    if (!vector) throw new Error(`consolidationPrepass: no embedding for "${text.slice(0, 60)}"`);
    return vector;
  });
  const libraryCount = libraryNodes.length;
  const candidateAt = (node: number) => (node >= libraryCount ? candidates[node - libraryCount]! : undefined);
  const mergeLibrary = input.mergeLibraryDuplicates ?? true;
  const union = createUnionFind(nodeText.length);
  let bestLink = new Map<number, number>();
  if (nodeText.length > 1) {
    const index = createSimilarityIndex(vectors, input.index);
    const signatures = new Map<number, ReturnType<typeof instructionSignatures>>();
    const signatureOf = (node: number) => {
      let signature = signatures.get(node);
      if (!signature) {
        signature = instructionSignatures(nodeText[node]!);
        signatures.set(node, signature);
      }
      return signature;
    };
    const pairs = index.pairs({
      threshold: input.nearDuplicateSimilarity,
      accept: (a, b) => {
        const left = candidateAt(a);
        const right = candidateAt(b);
        if (!left && !right) return mergeLibrary;
        if (!left || !right) return (left ?? right)!.option === "add";
        if (left.option !== right.option) return false;
        return left.option === "add" || left.targetId === right.targetId;
      },
    });
    bestLink = new Map();
    for (const pair of pairs) {
      // Near-identical wording with opposite instructions is a conflict, not a duplicate.
      if (oppositeAction(signatureOf(pair.a), signatureOf(pair.b), "strong")) continue;
      union.union(pair.a, pair.b);
      bestLink.set(pair.a, Math.max(bestLink.get(pair.a) ?? 0, pair.similarity));
      bestLink.set(pair.b, Math.max(bestLink.get(pair.b) ?? 0, pair.similarity));
    }
  }

  const suggestions: Suggestion[] = [];
  const libraryMerges: MergeOperation[] = [];
  const statusRank = { active: 3, probation: 2, candidate: 1, archived: 0 } as const;
  for (const group of union.groups(1)) {
    const members = group.map((node) => ({ node, candidate: candidateAt(node), entry: libraryNodes[node] }));
    const entries = members.filter((m) => !m.candidate).map((m) => m.entry!);
    const groupCandidates = members.filter((m) => m.candidate).map((m) => m.candidate!);
    const similarity = Math.max(...group.map((node) => bestLink.get(node) ?? 0));
    if (entries.length >= 2) {
      entries.sort(
        (a, b) =>
          statusRank[b.status] - statusRank[a.status] ||
          Number(countWords(a.text) > input.wordLimit) - Number(countWords(b.text) > input.wordLimit) ||
          b.stats.shown - a.stats.shown ||
          compareExperienceIds(a.id, b.id),
      );
      const ids = entries.map((entry) => entry.id).sort(compareExperienceIds);
      libraryMerges.push({
        op: "merge",
        ids,
        text: enforceWordLimit(entries[0]!.text, input.wordLimit).text,
        ...(entries[0]!.scope ? { scope: entries[0]!.scope } : {}),
        reason: `near-duplicate entries (cosine ${similarity.toFixed(2)}): kept the wording of ${entries[0]!.id}`,
      });
    }
    if (entries.length >= 1) {
      for (const candidate of groupCandidates) {
        notes.push(
          `${candidate.sources.join(", ")}: near duplicate of ${entries.map((e) => e.id).join(", ")} (cosine >= ${input.nearDuplicateSimilarity}), dropped`,
        );
        dropped += candidate.sources.length;
      }
      continue;
    }
    if (groupCandidates.length === 0) continue;
    const chosen = bestText(groupCandidates, input.wordLimit);
    const sources = groupCandidates.flatMap((candidate) => candidate.sources);
    if (groupCandidates.length > 1) {
      collapsed += groupCandidates.length - 1;
      notes.push(
        `${sources.join(", ")}: near duplicates${chosen.targetId ? ` (all modify ${chosen.targetId})` : ""}, collapsed into one suggestion`,
      );
    }
    suggestions.push({
      tempId: "",
      option: chosen.option,
      ...(chosen.targetId ? { targetId: chosen.targetId } : {}),
      text: chosen.text,
      // The chosen wording's own scope, else the first one its duplicates gave.
      ...scopeOf(chosen.whenNot ?? groupCandidates.find((candidate) => candidate.whenNot)?.whenNot),
      reason: sources.length > 1 ? `${chosen.reason} (proposed by ${sources.length} groups)` : chosen.reason,
      sources,
    });
  }
  suggestions.push(...deleteSuggestions);
  // Stable order: by the first source's position in the batch, so the same batch always gives the same prompt.
  const position = new Map(input.proposals.map((proposal, index) => [proposal.proposalId, index]));
  suggestions.sort((a, b) => (position.get(a.sources[0]!) ?? 0) - (position.get(b.sources[0]!) ?? 0));
  // Library entries over the word limit (imported, or older than the limit) are put to the model for a rewrite; they
  // have no source proposal, and if the model leaves them, the curator shortens them itself.
  const targeted = new Set(suggestions.map((suggestion) => suggestion.targetId));
  const merged = new Set(libraryMerges.flatMap((merge) => merge.ids));
  for (const entry of input.rewriteOverLimit === false ? [] : live) {
    const words = countWords(entry.text);
    if (words <= input.wordLimit || targeted.has(entry.id) || merged.has(entry.id)) continue;
    suggestions.push({
      tempId: "",
      option: "modify",
      targetId: entry.id,
      text: entry.text,
      reason: `over the ${input.wordLimit}-word limit (${words} words): rewrite it within the limit`,
      sources: [],
    });
  }
  suggestions.forEach((suggestion, index) => {
    suggestion.tempId = `P${index + 1}`;
  });
  libraryMerges.sort((a, b) => compareExperienceIds(a.ids[0]!, b.ids[0]!));
  return {
    suggestions,
    libraryMerges,
    notes,
    stats: {
      proposals: input.proposals.length,
      suggestions: suggestions.length,
      dropped,
      collapsed,
      libraryMerges: libraryMerges.length,
    },
  };
}
