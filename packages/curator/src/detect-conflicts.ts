import { emptyUsageTotals, type Operation, type UsageTotals } from "@tfgrpo/protocol";
import {
  type ConflictSummary,
  checkConflicts,
  emptyConflictSummary,
  type UsageTally,
} from "./check-conflicts.js";
import { type CuratorContext, summarizeOperations } from "./curator-context.js";

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

/** Contradiction scan of a whole library version: reported, or with `apply` written as a new version. */
export async function detectConflicts(
  context: CuratorContext,
  input: DetectConflictsInput,
): Promise<DetectConflictsResult> {
  const { store, now } = context;
  const snapshot =
    input.version === undefined
      ? await store.getHead(input.domain)
      : await store.getVersion(input.domain, input.version);
  const usage: UsageTally = { totals: emptyUsageTotals() };
  if (!snapshot)
    return {
      version: null,
      operations: [],
      notes: [],
      conflicts: emptyConflictSummary(),
      usage: usage.totals,
    };
  const checked = await checkConflicts(context, snapshot.experiences, [], true, usage);
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
