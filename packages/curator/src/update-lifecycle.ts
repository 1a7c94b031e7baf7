import { type Operation, TfgrpoError } from "@tfgrpo/protocol";
import type { CuratorContext } from "./curator-context.js";
import { type LifecycleTransition, planLifecycle } from "./plan-lifecycle.js";

export interface LifecycleResult {
  version: number | null;
  transitions: LifecycleTransition[];
}

export interface LifecycleOptions {
  /** State of the version written; default committed (moves on measured evidence are bookkeeping). */
  state?: "proposed" | "committed";
  runId?: string;
  /** The run's closing look (`planLifecycle`'s `closing`): after its last step's credit, with no step to follow. */
  closing?: boolean;
}

/**
 * Moves entries through their lifecycle (candidate -> active -> probation -> archived) on their stats and the active
 * budget, written as one new version on `version` (default: the head) with each move's reason.
 */
export async function updateLifecycle(
  { config, store, logger, now }: CuratorContext,
  domain: string,
  version?: number,
  options: LifecycleOptions = {},
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
    ...(options.closing ? { closing: true } : {}),
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
    state: options.state ?? "committed",
    runId: options.runId ?? null,
    message: `${options.closing ? "closing lifecycle" : "lifecycle"}: ${transitions.map((t) => `${t.id} ${t.from}->${t.to}`).join(", ")}`,
    now: now(),
  });
  logger.info("lifecycle", { domain, version: written.version.version, transitions: transitions.length });
  return { version: written.version.version, transitions };
}
