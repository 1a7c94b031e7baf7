import { type Experience, type Operation, TfgrpoError } from "@tfgrpo/protocol";
import type { CuratorConfig } from "./curator-config.js";
import type { CuratorLogger, CuratorModels, CuratorStore } from "./curator-dependencies.js";
import type { LeakageIndex } from "./leakage-check.js";

/**
 * What every curator operation runs with: its settings and dependencies, and the two caches one curator keeps
 * (embeddings, and the model's answers to conflict checks). Both are pure memos of deterministic answers; no decision
 * depends on what an earlier call left here, so any curator worker can take any call.
 */
export interface CuratorContext {
  readonly config: CuratorConfig;
  readonly store: CuratorStore;
  readonly models: CuratorModels;
  readonly logger: CuratorLogger;
  readonly now: () => Date;
  /** Vectors by text (unit length, so cosine similarity is a dot product). */
  embed(texts: readonly string[]): Promise<Map<string, Float32Array>>;
  /** The model's conflict verdicts by the pair's texts. */
  readonly conflictCache: Map<string, { conflict: boolean; reason: string }>;
  /** Leakage checks by fingerprint digest: stored fingerprints never change, so an index is built once per set. */
  readonly leakageIndexes: Map<string, Promise<LeakageIndex>>;
}

/** The entries of one version (none for an empty library); an unknown version is `not_found`. */
export async function loadLibrary(
  { store }: CuratorContext,
  domain: string,
  version: number | null,
): Promise<Experience[]> {
  if (version === null) return [];
  const snapshot = await store.getVersion(domain, version);
  if (!snapshot) {
    throw new TfgrpoError("not_found", `library ${domain}@v${version} not found`, {
      details: { domain, version },
    });
  }
  return snapshot.experiences;
}

/** "2 add, 1 merge": a version's message. */
export function summarizeOperations(operations: readonly Operation[]): string {
  const counts = new Map<string, number>();
  for (const op of operations) counts.set(op.op, (counts.get(op.op) ?? 0) + 1);
  return [...counts].map(([op, count]) => `${count} ${op}`).join(", ") || "no operations";
}
