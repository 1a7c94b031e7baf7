import type { Models } from "@tfgrpo/models";
import { type Bus, curatorConsolidate, curatorLifecycle, type Proposal } from "@tfgrpo/protocol";
import type { LibraryStore } from "@tfgrpo/store";
import type { OnlineConfig } from "./online-config.js";
import type { OnlineEvent } from "./online-events.js";
import type { OnlineOutcome, SummarizeOutcome } from "./online-outcome.js";
import { reflectOnline } from "./online-reflection.js";
import type { TriggerFiring } from "./reflection-trigger.js";

export interface ReflectionStepDeps {
  bus: Bus;
  store: Pick<LibraryStore, "getHeadVersion" | "getVersion">;
  domain: string;
  runId: string;
  models: Pick<Models, "structured">;
  embed: (texts: readonly string[]) => Promise<Map<string, ArrayLike<number>>>;
  summarize?: SummarizeOutcome;
  markConsumed?: (domain: string, selectionIds: readonly string[], reflectionId: string) => Promise<unknown>;
}

/**
 * One reflection on live traffic, every library write a curator request: the lifecycle first (entries move on the
 * credit live outcomes gave them, as a committed bookkeeping version, as offline), then the critic on neighbourhood
 * groups of the pool, then consolidation of its proposals (with the `held` proposals of reflections made while a
 * canary ran) into a proposed version whose parent is the head. With `hold` (a canary is out) it writes nothing: no
 * lifecycle move (it would move the head under the canary), no consolidation; the critic's proposals are returned
 * for the first reflection after the canary's decision.
 */
export async function reflectionStep(
  deps: ReflectionStepDeps,
  input: {
    id: string;
    at: number;
    firing: TriggerFiring;
    pool: readonly OnlineOutcome[];
    config: OnlineConfig;
    /** Proposals of reflections made while a canary ran, consolidated with this one's. */
    held?: readonly Proposal[];
    /** A canary is out: reflect, but keep the proposals (returned) instead of writing anything. */
    hold?: boolean;
  },
): Promise<{
  event: Extract<OnlineEvent, { type: "reflection" }>;
  head: number | null;
  /** With `hold`: this reflection's proposals, to consolidate after the canary's decision. */
  held: Proposal[];
}> {
  const { bus, store, domain, runId } = deps;
  // Another process may have moved the head (an operator's rollback, a manual edit): build on what is there now.
  let head = await store.getHeadVersion(domain);
  let lifecycle: { version: number; moves: number } | null = null;
  if (head !== null && !input.hold) {
    const moved = await bus.request(curatorLifecycle, { domain, version: head, runId });
    if (moved.version !== null) {
      lifecycle = { version: moved.version, moves: moved.transitions.length };
      head = moved.version;
    }
  }
  const snapshot = head === null ? null : await store.getVersion(domain, head);
  const result = await reflectOnline({
    reflectionId: input.id,
    pool: input.pool,
    experiences: (snapshot?.experiences ?? [])
      .filter((entry) => entry.status !== "archived")
      .map((entry) => ({ id: entry.id, text: entry.text })),
    config: input.config,
    models: deps.models,
    embed: deps.embed,
    ...(deps.summarize ? { summarize: deps.summarize } : {}),
  });
  let version: number | null = null;
  const notes = result.dropped.map((item) => `${item.groupId}: dropped (${item.reason})`);
  const held = input.hold ? result.proposals : [];
  const fromHeld = input.hold ? 0 : (input.held?.length ?? 0);
  const proposals = input.hold ? [] : [...(input.held ?? []), ...result.proposals];
  if (held.length > 0) notes.push(`${held.length} proposal(s) held until the canary out is decided`);
  if (proposals.length > 0) {
    const consolidated = await bus.request(curatorConsolidate, {
      runId,
      domain,
      baseVersion: head,
      proposals,
    });
    version = consolidated.version;
    notes.push(...consolidated.notes);
  }
  if (result.used.length > 0) await deps.markConsumed?.(domain, result.used, input.id);
  return {
    head,
    held,
    event: {
      type: "reflection",
      id: input.id,
      at: input.at,
      reason: input.firing.reason,
      windowRate: input.firing.windowRate,
      groups: result.groups.length,
      differences: result.differences,
      proposals: result.proposals.length,
      held: held.length,
      fromHeld,
      version,
      lifecycle,
      notes,
    },
  };
}
