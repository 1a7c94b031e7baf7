import type { Models } from "@tfgrpo/models";
import { type Bus, curatorConsolidate, curatorLifecycle } from "@tfgrpo/protocol";
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
 * groups of the pool, then consolidation of its proposals into a proposed version whose parent is the head.
 */
export async function reflectionStep(
  deps: ReflectionStepDeps,
  input: {
    id: string;
    at: number;
    firing: TriggerFiring;
    pool: readonly OnlineOutcome[];
    config: OnlineConfig;
  },
): Promise<{ event: Extract<OnlineEvent, { type: "reflection" }>; head: number | null }> {
  const { bus, store, domain, runId } = deps;
  // Another process may have moved the head (an operator's rollback, a manual edit): build on what is there now.
  let head = await store.getHeadVersion(domain);
  let lifecycle: { version: number; moves: number } | null = null;
  if (head !== null) {
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
  if (result.proposals.length > 0) {
    const consolidated = await bus.request(curatorConsolidate, {
      runId,
      domain,
      baseVersion: head,
      proposals: result.proposals,
    });
    version = consolidated.version;
    notes.push(...consolidated.notes);
  }
  if (result.used.length > 0) await deps.markConsumed?.(domain, result.used, input.id);
  return {
    head,
    event: {
      type: "reflection",
      id: input.id,
      at: input.at,
      reason: input.firing.reason,
      windowRate: input.firing.windowRate,
      groups: result.groups.length,
      differences: result.differences,
      proposals: result.proposals.length,
      version,
      lifecycle,
      notes,
    },
  };
}
