import { type ExperienceSelection, experienceLineTokens, type ScoredExperience } from "@tfgrpo/actor";
import { type Experience, seedFrom } from "@tfgrpo/protocol";

export interface ServedSelectionPlan {
  /** Sorted by id (the prompt's stable order). */
  shown: ScoredExperience[];
  /** A subset of `shown`, most useful first. */
  mostUseful: ScoredExperience[];
  /** Ids of the candidate entries among `shown`. */
  explorationIds: string[];
}

export interface ExplorationSlotOptions {
  /** Show at most this many entries (the exploration pick included). */
  k?: number;
  /** Decides ties between equally unproven candidates, so different tasks try different candidates. */
  task: string;
}

/**
 * The actor's selection plus seed 002 §5.2's hard rule: every selection shows at least one `candidate` entry when the
 * version has candidates, so new entries earn evidence instead of being crowded out by proven ones for ever.
 *
 * The actor's index already reserves its best candidates (`minCandidates`); this covers what that leaves out — a
 * candidate losing its conflict group to a proven entry, a budget too small for it, a `k` cut. When no candidate was
 * shown, the least shown candidate is added (ties broken per task by a hash, so concurrent tasks spread over the new
 * entries); it displaces the shown entry of its conflict group (one entry per group still holds), then the
 * lowest-scoring proven entries until the block fits the budget again. A `k` cut keeps the candidates first.
 */
export function withExplorationSlot(
  selection: ExperienceSelection,
  experiences: readonly Experience[],
  options: ExplorationSlotOptions,
): ServedSelectionPlan {
  let shown = [...selection.shown];
  let tokens = selection.tokens;
  const isCandidate = (entry: ScoredExperience) => entry.status === "candidate";

  if (!shown.some(isCandidate)) {
    const pick = pickCandidate(experiences, options.task);
    if (pick) {
      const byId = new Map(experiences.map((experience) => [experience.id, experience]));
      const rival =
        pick.conflictGroup === undefined
          ? undefined
          : shown.find((entry) => byId.get(entry.id)?.conflictGroup === pick.conflictGroup);
      if (rival) {
        shown = shown.filter((entry) => entry !== rival);
        tokens -= rival.tokens;
      }
      const added: ScoredExperience = {
        id: pick.id,
        text: pick.text,
        status: pick.status,
        similarity: 0,
        utility: 0,
        score: 0,
        tokens: experienceLineTokens(pick),
        contrasts: pick.stats.contrast?.n ?? 0,
      };
      tokens += added.tokens;
      // Over budget: the lowest-scoring proven entries make room.
      const proven = shown.filter((entry) => !isCandidate(entry)).sort((a, b) => a.score - b.score);
      while (tokens > selection.budget && proven.length > 0) {
        const drop = proven.shift()!;
        shown = shown.filter((entry) => entry !== drop);
        tokens -= drop.tokens;
      }
      shown.push(added);
    }
  }

  if (options.k !== undefined && shown.length > options.k) {
    const ranked = [...shown].sort(
      (a, b) => Number(isCandidate(b)) - Number(isCandidate(a)) || b.score - a.score,
    );
    const kept = new Set(ranked.slice(0, options.k));
    shown = shown.filter((entry) => kept.has(entry));
  }

  shown.sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)));
  const kept = new Set(shown.map((entry) => entry.id));
  const mostUseful = selection.mostUseful.filter((entry) => kept.has(entry.id));
  return {
    shown,
    // A repeat block of one entry repeating a shown list of one says nothing; keep the actor's rule of "more shown".
    mostUseful: shown.length > mostUseful.length ? mostUseful : [],
    explorationIds: shown.filter(isCandidate).map((entry) => entry.id),
  };
}

/** The candidate shown least so far; ties go to the smallest hash of (task, id). */
function pickCandidate(experiences: readonly Experience[], task: string): Experience | undefined {
  let fewest = Number.POSITIVE_INFINITY;
  for (const experience of experiences) {
    if (experience.status === "candidate" && experience.stats.shown < fewest) fewest = experience.stats.shown;
  }
  const taskHash = seedFrom(task);
  let best: Experience | undefined;
  let bestHash = 0;
  for (const experience of experiences) {
    if (experience.status !== "candidate" || experience.stats.shown !== fewest) continue;
    const hash = seedFrom(taskHash, experience.id);
    if (best === undefined || hash < bestHash) {
      best = experience;
      bestHash = hash;
    }
  }
  return best;
}
