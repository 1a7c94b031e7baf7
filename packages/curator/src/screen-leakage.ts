import { type Proposal, TfgrpoError } from "@tfgrpo/protocol";
import type { CuratorContext } from "./curator-context.js";
import { createLeakageIndex, type LeakageFinding, type LeakageIndex } from "./leakage-check.js";

/** Fingerprint sets a curator keeps ready: the runs it serves at once (each set is the size of a run's pool). */
const keptIndexes = 2;

/**
 * The leakage check of a consolidation request: the run's fingerprints are read from the store by the digest the
 * request names (never carried on the Bus), indexed once, and the proposals checked against them.
 */
export async function screenLeakage(
  context: CuratorContext,
  proposals: readonly Proposal[],
  reference: { fingerprints: string },
): Promise<{ kept: Proposal[]; refused: LeakageFinding[] }> {
  const index = await leakageIndexOf(context, reference.fingerprints);
  return index.check(proposals);
}

function leakageIndexOf(context: CuratorContext, digest: string): Promise<LeakageIndex> {
  const { leakageIndexes } = context;
  const cached = leakageIndexes.get(digest);
  if (cached) {
    // Most recently used last: the oldest set is the one dropped.
    leakageIndexes.delete(digest);
    leakageIndexes.set(digest, cached);
    return cached;
  }
  const loading = loadIndex(context, digest);
  leakageIndexes.set(digest, loading);
  loading.catch(() => leakageIndexes.delete(digest));
  while (leakageIndexes.size > keptIndexes) leakageIndexes.delete(leakageIndexes.keys().next().value!);
  return loading;
}

async function loadIndex({ store, logger }: CuratorContext, digest: string): Promise<LeakageIndex> {
  if (!store.getLeakageFingerprints) {
    throw new TfgrpoError(
      "invalid_config",
      "the leakage check reads the run's fingerprints from the store, and this curator's store cannot read them",
      { details: { fingerprints: digest } },
    );
  }
  const fingerprints = await store.getLeakageFingerprints(digest);
  if (!fingerprints) {
    throw new TfgrpoError(
      "not_found",
      `leakage fingerprints ${digest.slice(0, 12)} are not in the curator's store: the runner writes them once per run into the database it shares with the curator (is this curator serving another --db?)`,
      { details: { fingerprints: digest } },
    );
  }
  const index = createLeakageIndex(fingerprints);
  logger.info("leakage fingerprints loaded", { fingerprints: digest.slice(0, 12), tasks: index.size });
  return index;
}
