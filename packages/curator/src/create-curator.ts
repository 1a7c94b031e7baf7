import { createEmbeddingCache, type GateDecision, type Proposal } from "@tfgrpo/protocol";
import { type ConsolidateInput, type ConsolidateResult, consolidate } from "./consolidate.js";
import { type CreditInput, type CreditResult, credit } from "./credit.js";
import { type CuratorConfig, type CuratorConfigInput, resolveCuratorConfig } from "./curator-config.js";
import type { CuratorContext } from "./curator-context.js";
import {
  type CuratorLogger,
  type CuratorModels,
  type CuratorStore,
  silentLogger,
} from "./curator-dependencies.js";
import {
  type DetectConflictsInput,
  type DetectConflictsResult,
  detectConflicts,
} from "./detect-conflicts.js";
import { type GateInput, gate } from "./gate.js";
import type { EmbedFunction } from "./hashing-embedder.js";
import type { LeakageFinding } from "./leakage-check.js";
import { type MergeLibrariesInput, type MergeLibrariesResult, mergeLibraries } from "./merge-libraries.js";
import {
  type RecordDecisionInput,
  type RestoreVersionInput,
  recordDecision,
  restoreVersion,
} from "./online-decisions.js";
import { screenLeakage } from "./screen-leakage.js";
import { type LifecycleOptions, type LifecycleResult, updateLifecycle } from "./update-lifecycle.js";

export interface CreateCuratorOptions {
  store: CuratorStore;
  models: CuratorModels;
  /** Embeddings for duplicate and conflict blocking; defaults to `models.embed` (the embedder role). */
  embed?: EmbedFunction;
  config?: CuratorConfigInput;
  now?: () => Date;
  logger?: CuratorLogger;
}

export interface Curator {
  readonly config: CuratorConfig;
  consolidate(input: ConsolidateInput): Promise<ConsolidateResult>;
  credit(input: CreditInput): Promise<CreditResult>;
  updateLifecycle(domain: string, version?: number, options?: LifecycleOptions): Promise<LifecycleResult>;
  gate(input: GateInput): Promise<GateDecision>;
  detectConflicts(input: DetectConflictsInput): Promise<DetectConflictsResult>;
  mergeLibraries(input: MergeLibrariesInput): Promise<MergeLibrariesResult>;
  /** Stores a decision made on live traffic on a proposed version (online-decisions.ts). */
  recordDecision(input: RecordDecisionInput): Promise<GateDecision>;
  /** Restores the library a head replaced, as a committed version (online-decisions.ts). */
  restoreVersion(input: RestoreVersionInput): Promise<{ version: number }>;
  /** The leakage check of proposals against a run's stored fingerprints, named by digest (screen-leakage.ts). */
  screenLeakage(
    proposals: readonly Proposal[],
    reference: { fingerprints: string },
  ): Promise<{ kept: Proposal[]; refused: LeakageFinding[] }>;
}

/**
 * The curator: the only writer of experience libraries. It consolidates a batch's proposals into a proposed version
 * (deterministic pre-pass, chunked model consolidation, conflict check: `consolidate.ts`), keeps per-entry credit
 * (`credit.ts`), moves entries through their lifecycle on evidence (`update-lifecycle.ts`), and decides with the
 * acceptance gate whether a proposed version is committed (`gate.ts`); conflict scans and library merges beside them.
 * Every call carries what it needs, so any number of curators can share the calls.
 */
export function createCurator(options: CreateCuratorOptions): Curator {
  const config = resolveCuratorConfig(options.config);
  const embeddingCache = createEmbeddingCache({
    embed: options.embed ?? ((texts) => options.models.embed([...texts])),
  });
  const context: CuratorContext = {
    config,
    store: options.store,
    models: options.models,
    logger: options.logger ?? silentLogger,
    now: options.now ?? (() => new Date()),
    async embed(texts) {
      const unique = [...new Set(texts)];
      const vectors = await embeddingCache.embed(unique);
      return new Map(unique.map((text, index) => [text, vectors[index]!]));
    },
    conflictCache: new Map(),
    leakageIndexes: new Map(),
  };
  return {
    config,
    consolidate: (input) => consolidate(context, input),
    credit: (input) => credit(context, input),
    updateLifecycle: (domain, version, lifecycleOptions) =>
      updateLifecycle(context, domain, version, lifecycleOptions),
    gate: (input) => gate(context, input),
    detectConflicts: (input) => detectConflicts(context, input),
    mergeLibraries: (input) => mergeLibraries(context, input),
    recordDecision: (input) => recordDecision(context, input),
    restoreVersion: (input) => restoreVersion(context, input),
    screenLeakage: (proposals, reference) => screenLeakage(context, proposals, reference),
  };
}
