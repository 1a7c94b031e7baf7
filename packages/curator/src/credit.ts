import { TfgrpoError } from "@tfgrpo/protocol";
import { type CreditObservation, creditDeltas, type StatsDelta } from "./credit-deltas.js";
import type { CuratorContext } from "./curator-context.js";
import { statsRevision } from "./stats-revision.js";

export interface CreditInput {
  domain: string;
  version: number | null;
  observations: readonly CreditObservation[];
}

export interface CreditResult {
  /** Entries whose stats changed. */
  updated: number;
  /** The stats as this call left them (`statsRevision`): what the next rollouts rank by. */
  statsRevision: string;
}

/**
 * Adds a batch's evidence to the entries' stats (each rollout against its group's mean) and names the revision the
 * stats are at afterwards, read back from the store, so the caller passes on what the curator wrote.
 */
export async function credit(context: CuratorContext, input: CreditInput): Promise<CreditResult> {
  const deltas = creditDeltas(input.observations, {
    version: input.version,
    attribution: context.config.creditAttribution,
    relevance: context.config.contrastRelevance,
  });
  const updated = deltas.length === 0 ? 0 : await addStats(context, input, deltas);
  const snapshot = await readSnapshot(context, input);
  return { updated, statsRevision: statsRevision(snapshot?.experiences ?? []) };
}

async function addStats(
  context: CuratorContext,
  input: CreditInput,
  deltas: readonly StatsDelta[],
): Promise<number> {
  const { store, logger } = context;
  try {
    return await store.updateStats(input.domain, deltas);
  } catch (error) {
    if (!TfgrpoError.isInstance(error)) throw error;
    // The store refuses a whole batch over one unknown id (e.g. a rollout of another domain's library): keep the
    // known ones rather than lose a batch of evidence.
    const snapshot = await readSnapshot(context, input);
    const known = new Set(snapshot?.experiences.map((entry) => entry.id) ?? []);
    const kept = deltas.filter((delta) => known.has(delta.id));
    if (kept.length === deltas.length || kept.length === 0) throw error;
    logger.warn("credit for unknown ids skipped", {
      domain: input.domain,
      skipped: deltas.filter((delta) => !known.has(delta.id)).map((delta) => delta.id),
    });
    return store.updateStats(input.domain, kept);
  }
}

function readSnapshot({ store }: CuratorContext, input: CreditInput) {
  return input.version === null ? store.getHead(input.domain) : store.getVersion(input.domain, input.version);
}
