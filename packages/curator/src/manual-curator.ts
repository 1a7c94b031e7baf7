import type { Operation } from "@tfgrpo/protocol";
import { createEmbeddingCache, emptyUsageTotals, type LibraryVersion, TfgrpoError } from "@tfgrpo/protocol";
import { type ConflictSummary, checkConflicts } from "./check-conflicts.js";
import { type CuratorConfigInput, resolveCuratorConfig } from "./curator-config.js";
import type { CuratorContext } from "./curator-context.js";
import { type CuratorModels, type CuratorStore, silentLogger } from "./curator-dependencies.js";
import { createHashingEmbedder, type EmbedFunction } from "./hashing-embedder.js";
import { type ManualAction, manualActionOperations, manualActionSchema } from "./manual-actions.js";

/** The store a manual curator writes: the curator's store plus a head check and rollback. */
export interface ManualCuratorStore extends CuratorStore {
  getHeadVersion(domain: string): Promise<number | null>;
  rollback(
    domain: string,
    toVersion: number,
    options?: { expectedHead?: number | null; runId?: string | null; message?: string; now?: Date },
  ): Promise<LibraryVersion>;
}

export interface CreateManualCuratorOptions {
  store: ManualCuratorStore;
  /** The curator's models: with them, similar pairs get the model's conflict check; without, the rule scan only. */
  models?: CuratorModels;
  /** Embeddings for conflict blocking; defaults to `models.embed`, else the local hashing embedding. */
  embed?: EmbedFunction;
  config?: CuratorConfigInput;
  now?: () => Date;
}

export interface ManualRequest {
  domain: string;
  /** The head the person saw: the action is refused, and nothing written, if the library moved since. */
  expectedHead: number | null;
  /** Why: becomes every operation's reason and the version's message. */
  note: string;
  /** Who, for the message (e.g. "studio"). */
  author?: string;
}

export interface ManualResult {
  version: LibraryVersion;
  operations: Operation[];
  createdIds: string[];
  /** What the conflict check did (entries put into a conflict group for review, ...). */
  notes: string[];
  conflicts: ConflictSummary;
}

export interface ManualCurator {
  /** Applies one action through the curator's checks and commits it as a new version on `expectedHead`. */
  apply(request: ManualRequest & { action: ManualAction }): Promise<ManualResult>;
  /** Commits a version equal to `toVersion` (a rollback), if the head is still `expectedHead`. */
  rollback(request: ManualRequest & { toVersion: number }): Promise<LibraryVersion>;
}

/**
 * The curator's entry point for people: the same validation, word limit and conflict check as consolidation, but
 * nothing is rewritten or dropped on the person's behalf (a problem refuses the action with a clear message), and the
 * result is committed at once with the person's note as its reason (a person is their own gate). Optimistic
 * concurrency: an action made on a head that is no longer the head is refused as a `conflict` and writes nothing.
 */
export function createManualCurator(options: CreateManualCuratorOptions): ManualCurator {
  const { store } = options;
  const base = resolveCuratorConfig(options.config);
  // Without models there is no model conflict check: similar pairs are counted as unchecked, the rule scan decides.
  const config = options.models ? base : { ...base, conflicts: { ...base.conflicts, maxModelChecks: 0 } };
  const embed =
    options.embed ??
    (options.models ? (texts) => options.models!.embed([...texts]) : createHashingEmbedder());
  const cache = createEmbeddingCache({ embed: (texts) => embed(texts) });
  const context: CuratorContext = {
    config,
    store,
    models: options.models ?? noModels,
    logger: silentLogger,
    now: options.now ?? (() => new Date()),
    async embed(texts) {
      const unique = [...new Set(texts)];
      const vectors = await cache.embed(unique);
      return new Map(unique.map((text, index) => [text, vectors[index]!]));
    },
    conflictCache: new Map(),
    leakageIndexes: new Map(),
  };

  async function requireHead(domain: string, expected: number | null): Promise<void> {
    const head = await store.getHeadVersion(domain);
    if (head !== expected) throw staleError(domain, expected, head);
  }

  return {
    async apply(request) {
      const parsed = manualActionSchema.safeParse(request.action);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new TfgrpoError("invalid_operations", `${issue.path.join(".") || "action"}: ${issue.message}`, {
          details: { field: issue.path.join(".") },
        });
      }
      await requireHead(request.domain, request.expectedHead);
      const snapshot =
        request.expectedHead === null ? null : await store.getVersion(request.domain, request.expectedHead);
      const library = snapshot?.experiences ?? [];
      const reason = reasonOf(request, parsed.data);
      const operations = manualActionOperations(
        parsed.data,
        new Map(library.map((entry) => [entry.id, entry])),
        reason,
        config,
      );
      const checked = await checkConflicts(context, library, operations, false, {
        totals: emptyUsageTotals(),
      });
      try {
        const written = await store.applyOperations(request.domain, checked.operations, {
          parent: request.expectedHead,
          state: "committed",
          runId: null,
          message: `${request.author ?? "manual"}: ${parsed.data.kind}: ${reason}`,
          now: context.now(),
        });
        return {
          version: written.version,
          operations: checked.operations,
          createdIds: written.createdIds,
          notes: options.models ? checked.notes : checked.notes.map(withoutModelNote),
          conflicts: checked.summary,
        };
      } catch (error) {
        if (TfgrpoError.hasCode(error, "conflict")) {
          throw staleError(request.domain, request.expectedHead, await store.getHeadVersion(request.domain));
        }
        throw error;
      }
    },
    async rollback(request) {
      await requireHead(request.domain, request.expectedHead);
      const note = request.note.trim() || `rolled back to v${request.toVersion}`;
      try {
        // The store checks the head again inside its write: a commit landing after the check above is not undone.
        return await store.rollback(request.domain, request.toVersion, {
          expectedHead: request.expectedHead,
          runId: null,
          message: `${request.author ?? "manual"}: rollback to v${request.toVersion}: ${note}`,
          now: context.now(),
        });
      } catch (error) {
        if (TfgrpoError.hasCode(error, "conflict"))
          throw staleError(request.domain, request.expectedHead, await store.getHeadVersion(request.domain));
        throw error;
      }
    },
  };
}

function reasonOf(request: ManualRequest, action: ManualAction): string {
  const note = request.note.replace(/\s+/g, " ").trim();
  if (note) return note;
  switch (action.kind) {
    case "approve":
      return `${action.id} approved by hand`;
    case "reject":
      return `${action.id} rejected by hand`;
    case "edit":
      return `${action.id} edited by hand`;
    case "merge":
      return `${action.ids.join(", ")} merged by hand`;
    case "resolve-conflict":
      return `conflict ${action.group} resolved by hand`;
  }
}

function staleError(domain: string, expected: number | null, head: number | null): TfgrpoError {
  const name = (version: number | null) => (version === null ? "the empty library" : `v${version}`);
  return new TfgrpoError(
    "conflict",
    `the library changed, reload: ${domain} is now at ${name(head)} (this page showed ${name(expected)}); nothing was written`,
    { details: { domain, expectedHead: expected, head, stale: true } },
  );
}

/** Without a curator model the unchecked pairs are expected, not a budget running out: say so plainly. */
function withoutModelNote(note: string): string {
  const unchecked = /^(\d+) similar pairs left unchecked/.exec(note);
  return unchecked
    ? `${unchecked[1]} similar pairs not checked by a model (no curator model configured: only contradictions the rule scan finds outright are caught)`
    : note;
}

const noModels: CuratorModels = {
  structured: () => Promise.reject(new TfgrpoError("model_error", "no curator model configured")),
  embed: () => Promise.reject(new TfgrpoError("model_error", "no embedder configured")),
};
