import { type GateDecision, type LibraryVersion, TfgrpoError } from "@tfgrpo/protocol";
import type { CuratorContext } from "./curator-context.js";

export interface RecordDecisionInput {
  domain: string;
  version: number;
  state: "committed" | "rejected";
  decision: GateDecision;
}

export interface RestoreVersionInput {
  domain: string;
  /** The head being undone: the restore is refused (`conflict`) when the head is no longer it. */
  from: number;
  /** The version to serve again (null: the empty library). */
  to: number | null;
  runId?: string;
  message: string;
}

/**
 * Stores a decision made on live traffic (the online learner's sequential canary, an abandoned or voided canary) on
 * the proposed version: the curator stays the one writer of libraries, whoever decided.
 */
export async function recordDecision(
  { store, logger }: CuratorContext,
  input: RecordDecisionInput,
): Promise<GateDecision> {
  await store.setVersionState(input.domain, input.version, input.state, input.decision);
  logger.info("decision", {
    domain: input.domain,
    version: input.version,
    decision: input.decision.decision,
  });
  return input.decision;
}

/**
 * Restores the library a head replaced: a committed version equal to `to`, or one with every live entry deleted when
 * `to` is the empty library (there is no version to copy). The message carries the numbers behind the rollback.
 */
export async function restoreVersion(
  { store }: CuratorContext,
  input: RestoreVersionInput,
): Promise<{ version: number }> {
  const runId = input.runId ?? null;
  if (input.to !== null) {
    if (!store.rollback)
      throw new TfgrpoError(
        "invalid_input",
        "this curator's store cannot roll back a library (no rollback)",
        {
          details: { domain: input.domain },
        },
      );
    const restored = await store.rollback(input.domain, input.to, {
      runId,
      message: input.message,
      expectedHead: input.from,
    });
    return { version: restored.version };
  }
  const head = await store.getHead(input.domain);
  if (head?.version !== input.from)
    throw new TfgrpoError(
      "conflict",
      `the head of ${input.domain} is ${head ? `v${head.version}` : "empty"}, not v${input.from}: nothing restored`,
      { details: { domain: input.domain, head: head?.version ?? null, expectedHead: input.from } },
    );
  const applied: { version: LibraryVersion } = await store.applyOperations(
    input.domain,
    head.experiences
      .filter((entry) => entry.status !== "archived")
      .map((entry) => ({ op: "delete" as const, id: entry.id, reason: input.message })),
    { parent: input.from, state: "committed", runId, message: input.message },
  );
  return { version: applied.version.version };
}
