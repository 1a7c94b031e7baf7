import {
  addUsage,
  createEmbeddingCache,
  type Experience,
  emptyUsageTotals,
  type GateDecision,
  type Operation,
  type Proposal,
  TfgrpoError,
  type UsageTotals,
} from "@tfgrpo/protocol";
import { decideGate } from "./acceptance-gate.js";
import { applyConflictPlan } from "./apply-conflict-plan.js";
import { conflictAnswerSchema, conflictCheckMessages } from "./conflict-check-prompt.js";
import { consolidationPrepass, type PrepassResult } from "./consolidation-prepass.js";
import { consolidationAnswerSchema, consolidationMessages } from "./consolidation-prompt.js";
import { type CreditObservation, compareExperienceIds, creditDeltas } from "./credit-deltas.js";
import { type CuratorConfig, type CuratorConfigInput, resolveCuratorConfig } from "./curator-config.js";
import {
  type CuratorLogger,
  type CuratorModels,
  type CuratorStore,
  silentLogger,
} from "./curator-dependencies.js";
import { type ConflictCheck, type ConflictPair, detectConflictPairs } from "./detect-conflict-pairs.js";
import { type EmbedFunction, fnv1a } from "./hashing-embedder.js";
import { limitLibraryEntries } from "./limit-library-entries.js";
import { fallbackOperations, mapConsolidationAnswer } from "./map-consolidation-answer.js";
import { planConflictResolution } from "./plan-conflict-resolution.js";
import { planConsolidationChunks } from "./plan-consolidation-chunks.js";
import { type LifecycleTransition, planLifecycle } from "./plan-lifecycle.js";
import { type ProjectedEntry, projectLibrary } from "./project-library.js";
import { reconcileOperations } from "./reconcile-operations.js";

export interface CreateCuratorOptions {
  store: CuratorStore;
  models: CuratorModels;
  /** Embeddings for duplicate and conflict blocking; defaults to `models.embed` (the embedder role). */
  embed?: EmbedFunction;
  config?: CuratorConfigInput;
  now?: () => Date;
  logger?: CuratorLogger;
}

export interface ConsolidateInput {
  runId: string;
  domain: string;
  /** The library version the proposals were made against; null for an empty library. */
  baseVersion: number | null;
  proposals: readonly Proposal[];
}

export interface ConflictSummary {
  pairs: { a: string; b: string; similarity: number; source: "rule" | "model"; reason: string }[];
  groups: { name: string; members: string[] }[];
  archived: string[];
  modelChecks: number;
  unchecked: number;
}

export interface ConsolidateResult {
  /** The proposed version written, or null when nothing changes. */
  version: number | null;
  operations: Operation[];
  notes: string[];
  usage: UsageTotals;
  createdIds: string[];
  /** True when the model's answer was unusable for at least one chunk and proposals were kept as candidates. */
  fallback: boolean;
  chunks: number;
  prepass: PrepassResult["stats"];
  conflicts: ConflictSummary;
}

export interface CreditInput {
  domain: string;
  version: number | null;
  observations: readonly CreditObservation[];
}

export interface LifecycleResult {
  version: number | null;
  transitions: LifecycleTransition[];
}

export interface GateInput {
  domain: string;
  candidateVersion: number;
  headVersion: number | null;
  candidateScores: readonly number[];
  headScores: readonly number[];
  stage: "precheck" | "full";
  /** The pre-check decision that led to this full validation, stored with the final decision. */
  precheck?: GateDecision;
}

export interface DetectConflictsInput {
  domain: string;
  /** Defaults to the head. */
  version?: number;
  /** Write the resulting operations as a new version; by default only report them. */
  apply?: "proposed" | "committed";
  runId?: string;
}

export interface DetectConflictsResult {
  version: number | null;
  operations: Operation[];
  notes: string[];
  conflicts: ConflictSummary;
  usage: UsageTotals;
}

export interface ImportSource {
  /** Named in reasons and notes (a domain, a file name). */
  label: string;
  entries: readonly { id?: string; text: string }[];
}

export interface MergeLibrariesInput {
  /** A domain whose head (active and candidate entries) is imported, or entries from elsewhere (a file). */
  from: string | ImportSource;
  into: string;
  runId?: string;
  /** Commit the merged version (default), or leave it proposed for a validation gate. */
  commit?: boolean;
}

export interface MergeLibrariesResult extends ConsolidateResult {
  imported: number;
  committed: boolean;
}

export interface Curator {
  readonly config: CuratorConfig;
  consolidate(input: ConsolidateInput): Promise<ConsolidateResult>;
  credit(input: CreditInput): Promise<{ updated: number }>;
  updateLifecycle(
    domain: string,
    version?: number,
    options?: { state?: "proposed" | "committed"; runId?: string },
  ): Promise<LifecycleResult>;
  gate(input: GateInput): Promise<GateDecision>;
  detectConflicts(input: DetectConflictsInput): Promise<DetectConflictsResult>;
  mergeLibraries(input: MergeLibrariesInput): Promise<MergeLibrariesResult>;
}

function summarizeOperations(operations: readonly Operation[]): string {
  const counts = new Map<string, number>();
  for (const op of operations) counts.set(op.op, (counts.get(op.op) ?? 0) + 1);
  return [...counts].map(([op, count]) => `${count} ${op}`).join(", ") || "no operations";
}

/**
 * The curator: the only writer of experience libraries. It consolidates a batch's proposals into a proposed version
 * (deterministic pre-pass, chunked model consolidation, conflict check), keeps per-entry credit, moves entries through
 * their lifecycle on evidence, and decides with the acceptance gate whether a proposed version is committed.
 */
export function createCurator(options: CreateCuratorOptions): Curator {
  const config = resolveCuratorConfig(options.config);
  const { store, models } = options;
  const logger = options.logger ?? silentLogger;
  const now = options.now ?? (() => new Date());
  const embeddingCache = createEmbeddingCache({
    embed: options.embed ?? ((texts) => models.embed([...texts])),
  });
  // The curator looks vectors up by text (unit length, so cosine similarity is a dot product).
  const embeddings = {
    async embed(texts: readonly string[]): Promise<Map<string, Float32Array>> {
      const unique = [...new Set(texts)];
      const vectors = await embeddingCache.embed(unique);
      return new Map(unique.map((text, index) => [text, vectors[index]!]));
    },
  };
  const conflictCache = new Map<string, { conflict: boolean; reason: string }>();
  const prechecks = new Map<string, GateDecision>();

  async function loadLibrary(domain: string, version: number | null): Promise<Experience[]> {
    if (version === null) return [];
    const snapshot = await store.getVersion(domain, version);
    if (!snapshot) {
      throw new TfgrpoError("not_found", `library ${domain}@v${version} not found`, {
        details: { domain, version },
      });
    }
    return snapshot.experiences;
  }

  function modelConflictCheck(usage: { totals: UsageTotals }, failures: { count: number }): ConflictCheck {
    return async (a, b) => {
      const key = [a.text, b.text].sort().join("\u0000");
      const cached = conflictCache.get(key);
      if (cached) return cached;
      try {
        const result = await models.structured("curator", {
          messages: conflictCheckMessages(a, b),
          schema: conflictAnswerSchema,
          name: "conflict_check",
          temperature: 0,
        });
        usage.totals = addUsage(usage.totals, result.usage);
        conflictCache.set(key, result.value);
        if (conflictCache.size > 20_000) conflictCache.delete(conflictCache.keys().next().value!);
        return result.value;
      } catch (error) {
        if (!TfgrpoError.hasCode(error, "model_error")) throw error;
        failures.count++;
        return { conflict: false, reason: "model check failed" };
      }
    };
  }

  /** Conflict check of a projected library; only focused entries (new or rewritten) are examined. */
  async function checkConflicts(
    library: readonly Experience[],
    operations: readonly Operation[],
    focusAll: boolean,
    usage: { totals: UsageTotals },
  ): Promise<{ operations: Operation[]; notes: string[]; summary: ConflictSummary }> {
    const projected = projectLibrary(library, operations);
    const empty: ConflictSummary = { pairs: [], groups: [], archived: [], modelChecks: 0, unchecked: 0 };
    const focus = (index: number) => focusAll || projected[index]!.created || projected[index]!.rewritten;
    if (!config.conflicts.enabled || projected.length < 2 || !projected.some((_, index) => focus(index))) {
      return { operations: [...operations], notes: [], summary: empty };
    }
    const vectors = await embeddings.embed(projected.map((entry) => entry.text));
    const failures = { count: 0 };
    const detected = await detectConflictPairs({
      entries: projected,
      vectors: projected.map((entry) => vectors.get(entry.text)!),
      focus,
      topicSimilarity: config.conflicts.topicSimilarity,
      ruleScanMinSimilarity: config.conflicts.ruleScanMinSimilarity,
      neighbours: config.conflicts.neighbours,
      maxModelChecks: config.conflicts.maxModelChecks,
      check: modelConflictCheck(usage, failures),
      index: { seed: config.indexSeed },
    });
    const plan = planConflictResolution({
      entries: projected,
      pairs: detected.pairs,
      minEvidence: config.lifecycle.minEvidence,
      margin: config.conflicts.resolveMargin,
      canResolve: (index) => !projected[index]!.created && !projected[index]!.rewritten,
    });
    const applied = applyConflictPlan(
      operations,
      projected,
      plan,
      new Map(library.map((entry) => [entry.id, entry])),
    );
    const notes = [...applied.notes];
    if (failures.count > 0) notes.push(`${failures.count} conflict checks failed (model) and were skipped`);
    if (detected.unchecked > 0)
      notes.push(
        `${detected.unchecked} similar pairs left unchecked (budget ${config.conflicts.maxModelChecks})`,
      );
    const label = (entry: ProjectedEntry) => entry.label;
    return {
      operations: applied.operations,
      notes,
      summary: {
        pairs: detected.pairs.map((pair: ConflictPair) => ({
          a: label(projected[pair.a]!),
          b: label(projected[pair.b]!),
          similarity: pair.similarity,
          source: pair.source,
          reason: pair.reason,
        })),
        groups: plan.groups.map((group) => ({
          name: group.name,
          members: group.members.map((index) => label(projected[index]!)),
        })),
        archived: plan.archive.map((item) => label(projected[item.index]!)),
        modelChecks: detected.modelChecks,
        unchecked: detected.unchecked,
      },
    };
  }

  async function consolidate(input: ConsolidateInput): Promise<ConsolidateResult> {
    const library = await loadLibrary(input.domain, input.baseVersion);
    const byId = new Map(library.map((entry) => [entry.id, entry]));
    const live = library.filter((entry) => entry.status !== "archived");
    const usage = { totals: emptyUsageTotals() };
    const vectors = await embeddings.embed([
      ...live.map((entry) => entry.text),
      ...input.proposals.flatMap((proposal) =>
        proposal.text?.trim() ? [proposal.text.replace(/\s+/g, " ").trim()] : [],
      ),
    ]);
    const prepass = consolidationPrepass({
      library,
      proposals: input.proposals,
      embeddings: vectors,
      wordLimit: config.wordLimit,
      nearDuplicateSimilarity: config.duplicates.nearDuplicateSimilarity,
      minContentWords: config.minContentWords,
      index: { seed: config.indexSeed },
    });
    const notes = [...prepass.notes];
    const operations: Operation[] = [];
    let fallback = false;
    const chunks = planConsolidationChunks({
      domain: input.domain,
      live,
      suggestions: prepass.suggestions,
      vectors,
      wordLimit: config.wordLimit,
      maxPromptTokens: config.maxPromptTokens,
      contextNeighbours: config.contextNeighbours,
      indexSeed: config.indexSeed,
    });
    for (const [chunkIndex, chunk] of chunks.entries()) {
      const where = chunks.length > 1 ? `chunk ${chunkIndex + 1}/${chunks.length}: ` : "";
      if (chunk.oversize)
        notes.push(`${where}over the prompt budget even alone (${chunk.tokens} tokens); texts clipped`);
      const context = chunk.context
        .map((id) => byId.get(id)!)
        .sort((a, b) => compareExperienceIds(a.id, b.id));
      try {
        const result = await models.structured("curator", {
          messages: consolidationMessages({
            domain: input.domain,
            wordLimit: config.wordLimit,
            experiences: context,
            suggestions: chunk.items,
          }),
          schema: consolidationAnswerSchema,
          name: "consolidation",
          description: "final operations on the experience library",
          seed: fnv1a(`${input.runId}:${input.domain}:${chunkIndex}`) & 0x7fffffff,
        });
        usage.totals = addUsage(usage.totals, result.usage);
        const mapped = mapConsolidationAnswer({
          answer: result.value,
          suggestions: chunk.items,
          library: byId,
          wordLimit: config.wordLimit,
        });
        operations.push(...mapped.operations);
        notes.push(...mapped.notes.map((note) => `${where}${note}`));
      } catch (error) {
        if (!TfgrpoError.hasCode(error, "model_error")) throw error;
        fallback = true;
        const why = "model answer unusable";
        logger.warn("consolidation fell back to candidates", {
          domain: input.domain,
          chunk: chunkIndex,
          error: error.message,
        });
        const details = error.details?.usage as UsageTotals | undefined;
        if (details && typeof details.inputTokens === "number")
          usage.totals = addUsage(usage.totals, details);
        notes.push(
          `${where}${why} (${error.message.slice(0, 200)}): the chunk's proposals are kept as candidates`,
        );
        const kept = fallbackOperations(chunk.items, config.wordLimit, why);
        operations.push(...kept.operations);
        notes.push(...kept.notes.map((note) => `${where}${note}`));
      }
    }
    operations.push(...prepass.libraryMerges);
    const reconciled = reconcileOperations(operations, byId, { minContentWords: config.minContentWords });
    notes.push(...reconciled.notes);
    const limited = limitLibraryEntries(library, reconciled.operations, config.wordLimit);
    notes.push(...limited.notes);
    const checked = await checkConflicts(library, limited.operations, false, usage);
    notes.push(...checked.notes);
    const final = checked.operations;
    const base: Omit<ConsolidateResult, "version" | "operations" | "createdIds"> = {
      notes,
      usage: usage.totals,
      fallback,
      chunks: chunks.length,
      prepass: prepass.stats,
      conflicts: checked.summary,
    };
    if (!final.some((op) => op.op !== "keep")) {
      return { ...base, version: null, operations: final, createdIds: [] };
    }
    const message = `consolidation of ${input.proposals.length} proposals: ${summarizeOperations(final)}`;
    try {
      const written = await store.applyOperations(input.domain, final, {
        parent: input.baseVersion,
        state: "proposed",
        runId: input.runId,
        message,
        now: now(),
      });
      logger.info("consolidated", { domain: input.domain, version: written.version.version, message });
      return { ...base, version: written.version.version, operations: final, createdIds: written.createdIds };
    } catch (error) {
      if (!TfgrpoError.hasCode(error, "invalid_operations")) throw error;
      // Our operations should never be refused; if they are, the batch is still not lost.
      logger.warn("store refused consolidated operations; keeping proposals as candidates", {
        error: error.message,
      });
      notes.push(
        `store refused the consolidated operations (${error.message.slice(0, 300)}): proposals kept as candidates`,
      );
      const kept = fallbackOperations(
        prepass.suggestions,
        config.wordLimit,
        "operations refused by the store",
      );
      notes.push(...kept.notes);
      const safe = reconcileOperations(kept.operations, byId).operations;
      if (safe.length === 0)
        return { ...base, fallback: true, version: null, operations: [], createdIds: [] };
      const written = await store.applyOperations(input.domain, safe, {
        parent: input.baseVersion,
        state: "proposed",
        runId: input.runId,
        message: `${message} (fallback: proposals kept as candidates)`,
        now: now(),
      });
      return {
        ...base,
        fallback: true,
        version: written.version.version,
        operations: safe,
        createdIds: written.createdIds,
      };
    }
  }

  async function credit(input: CreditInput): Promise<{ updated: number }> {
    const deltas = creditDeltas(input.observations, {
      version: input.version,
      attribution: config.creditAttribution,
    });
    if (deltas.length === 0) return { updated: 0 };
    try {
      return { updated: await store.updateStats(input.domain, deltas) };
    } catch (error) {
      if (!TfgrpoError.isInstance(error)) throw error;
      // The store refuses a whole batch over one unknown id (e.g. a rollout of another domain's library): keep the
      // known ones rather than lose a batch of evidence.
      const snapshot =
        input.version === null
          ? await store.getHead(input.domain)
          : await store.getVersion(input.domain, input.version);
      const known = new Set(snapshot?.experiences.map((entry) => entry.id) ?? []);
      const kept = deltas.filter((delta) => known.has(delta.id));
      if (kept.length === deltas.length || kept.length === 0) throw error;
      logger.warn("credit for unknown ids skipped", {
        domain: input.domain,
        skipped: deltas.filter((delta) => !known.has(delta.id)).map((delta) => delta.id),
      });
      return { updated: await store.updateStats(input.domain, kept) };
    }
  }

  async function updateLifecycle(
    domain: string,
    version?: number,
    lifecycleOptions: { state?: "proposed" | "committed"; runId?: string } = {},
  ): Promise<LifecycleResult> {
    const snapshot =
      version === undefined ? await store.getHead(domain) : await store.getVersion(domain, version);
    if (!snapshot) {
      if (version === undefined) return { version: null, transitions: [] };
      throw new TfgrpoError("not_found", `library ${domain}@v${version} not found`, {
        details: { domain, version },
      });
    }
    const transitions = planLifecycle({
      experiences: snapshot.experiences,
      version: snapshot.version,
      policy: config.lifecycle,
      budget: config.activeBudget,
      utility: config.utility,
    });
    if (transitions.length === 0) return { version: null, transitions };
    const ops: Operation[] = transitions.map((transition) => ({
      op: "modify",
      id: transition.id,
      status: transition.to,
      reason: transition.reason,
    }));
    const written = await store.applyOperations(domain, ops, {
      parent: snapshot.version,
      state: lifecycleOptions.state ?? "committed",
      runId: lifecycleOptions.runId ?? null,
      message: `lifecycle: ${transitions.map((t) => `${t.id} ${t.from}->${t.to}`).join(", ")}`,
      now: now(),
    });
    logger.info("lifecycle", { domain, version: written.version.version, transitions: transitions.length });
    return { version: written.version.version, transitions };
  }

  async function gate(input: GateInput): Promise<GateDecision> {
    const key = `${input.domain}@${input.candidateVersion}`;
    const decision = decideGate({
      candidateScores: input.candidateScores,
      headScores: input.headScores,
      stage: input.stage,
      config: config.gate,
    });
    const details: Record<string, unknown> = {
      ...decision.details,
      headVersion: input.headVersion,
      candidateVersion: input.candidateVersion,
    };
    // The pre-check's numbers travel with the final decision: given by the caller, else remembered from this process.
    const precheck = input.stage === "full" ? (input.precheck ?? prechecks.get(key)) : undefined;
    if (precheck) details.precheck = precheck;
    const full: GateDecision = { ...decision, details };
    if (details.final === false) {
      prechecks.set(key, full);
      if (prechecks.size > 1000) prechecks.delete(prechecks.keys().next().value!);
      return full;
    }
    prechecks.delete(key);
    const state = full.decision === "commit" ? "committed" : "rejected";
    try {
      await store.setVersionState(input.domain, input.candidateVersion, state, full);
      logger.info("gate", { domain: input.domain, version: input.candidateVersion, decision: full.decision });
      return full;
    } catch (error) {
      // Only a stale parent is turned into a rejection; a version already decided stays an error for the caller.
      const staleParent =
        TfgrpoError.hasCode(error, "conflict") && error.details !== undefined && "head" in error.details;
      if (state !== "committed" || !staleParent) throw error;
      // Another version was committed since this one was proposed: its comparison is stale, so it is not committed.
      const stale: GateDecision = {
        ...full,
        decision: "reject",
        reason: `${full.reason}; but v${input.candidateVersion}'s parent is no longer the head (${error.message.slice(0, 160)}): rejected`,
      };
      await store.setVersionState(input.domain, input.candidateVersion, "rejected", stale);
      return stale;
    }
  }

  async function detectConflicts(input: DetectConflictsInput): Promise<DetectConflictsResult> {
    const snapshot =
      input.version === undefined
        ? await store.getHead(input.domain)
        : await store.getVersion(input.domain, input.version);
    const usage = { totals: emptyUsageTotals() };
    const empty: ConflictSummary = { pairs: [], groups: [], archived: [], modelChecks: 0, unchecked: 0 };
    if (!snapshot) return { version: null, operations: [], notes: [], conflicts: empty, usage: usage.totals };
    const checked = await checkConflicts(snapshot.experiences, [], true, usage);
    const operations = checked.operations;
    let version: number | null = null;
    if (input.apply && operations.length > 0) {
      const written = await store.applyOperations(input.domain, operations, {
        parent: snapshot.version,
        state: input.apply,
        runId: input.runId ?? null,
        message: `conflict check: ${summarizeOperations(operations)}`,
        now: now(),
      });
      version = written.version.version;
    }
    return { version, operations, notes: checked.notes, conflicts: checked.summary, usage: usage.totals };
  }

  async function mergeLibraries(input: MergeLibrariesInput): Promise<MergeLibrariesResult> {
    let source: ImportSource;
    if (typeof input.from === "string") {
      const head = await store.getHead(input.from);
      if (!head)
        throw new TfgrpoError("not_found", `library ${input.from} has no committed version to merge from`, {
          details: { domain: input.from },
        });
      source = {
        label: input.from,
        // Proven and untried entries travel; entries on probation or archived stay home.
        entries: head.experiences.filter(
          (entry) => entry.status === "active" || entry.status === "candidate",
        ),
      };
    } else source = input.from;
    const runId = input.runId ?? `merge-${source.label}-into-${input.into}`;
    const proposals: Proposal[] = source.entries.map((entry, index) => ({
      proposalId: `${source.label}:${entry.id ?? index}`,
      op: "add",
      text: entry.text,
      reason: `imported from ${source.label}${entry.id ? ` ${entry.id}` : ""}`,
      groupId: `import:${source.label}`,
      taskId: "import",
    }));
    const head = await store.getHead(input.into);
    const result = await consolidate({
      runId,
      domain: input.into,
      baseVersion: head?.version ?? null,
      proposals,
    });
    let committed = false;
    if (result.version !== null && input.commit !== false) {
      const decision: GateDecision = {
        decision: "commit",
        candidateScore: null,
        headScore: null,
        margin: 0,
        mode: "always",
        tasks: 0,
        stage: "none",
        reason: `library merge from ${source.label} into ${input.into}, committed without validation: imported entries enter as candidates and must earn their place`,
        details: { imported: proposals.length, headVersion: head?.version ?? null },
      };
      await store.setVersionState(input.into, result.version, "committed", decision);
      committed = true;
    }
    return { ...result, imported: proposals.length, committed };
  }

  return { config, consolidate, credit, updateLifecycle, gate, detectConflicts, mergeLibraries };
}
