import { type GateDecision, type Proposal, TfgrpoError } from "@tfgrpo/protocol";
import { type ConsolidateResult, consolidate } from "./consolidate.js";
import type { CuratorContext } from "./curator-context.js";

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

/**
 * Imports another library's entries into a domain through consolidation (duplicates merged, conflicts checked).
 * Imported entries enter as candidates and must earn their place, so the merge is committed without validation
 * unless the caller asks to leave it proposed.
 */
export async function mergeLibraries(
  context: CuratorContext,
  input: MergeLibrariesInput,
): Promise<MergeLibrariesResult> {
  const { store } = context;
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
      entries: head.experiences.filter((entry) => entry.status === "active" || entry.status === "candidate"),
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
  const result = await consolidate(context, {
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
