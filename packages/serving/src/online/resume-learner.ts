import type { LibraryStore } from "@tfgrpo/store";
import { type CanaryRun, recordCanaryOutcome } from "./canary-run.js";
import type { DecisionWriter } from "./decision-writer.js";
import type { OnlineLearnerSnapshot } from "./learner-snapshot.js";
import { abandonedDecision } from "./online-decision.js";
import type { OnlineEvent } from "./online-events.js";
import type { OnlineLearnerHistory } from "./online-learner-api.js";

const name = (version: number | null) => (version === null ? "(the empty library)" : `v${version}`);

export interface ResumeDeps {
  store: Pick<LibraryStore, "getVersionInfo" | "listVersions">;
  domain: string;
  writer: DecisionWriter;
  /** Strata of task texts, in their order. */
  strata: (tasks: readonly string[]) => Promise<string[]>;
}

/**
 * The stored canary, continued with the outcomes it had (read back from the store), or decided as abandoned when no
 * learner can go on with it: its version is no longer proposed, or its parent is no longer the head.
 */
export async function resumeCanary(
  deps: ResumeDeps,
  saved: NonNullable<OnlineLearnerSnapshot["canary"]>,
  history: OnlineLearnerHistory,
  head: number | null,
  bound: number,
  out: OnlineEvent[],
): Promise<CanaryRun | null> {
  const info = await deps.store.getVersionInfo(deps.domain, saved.version);
  if (info?.state === "proposed" && head === saved.parent) {
    const run: CanaryRun = { ...saved, outcomes: [], headOutcomes: [] };
    const outcomes = [
      ...history.canary.filter((o) => o.version === saved.version),
      ...history.head.filter((o) => o.version === saved.parent),
    ];
    const strata = await deps.strata(outcomes.map((o) => o.task));
    for (const [index, o] of outcomes.entries()) recordCanaryOutcome(run, o, strata[index]!, bound);
    return run;
  }
  const why =
    info?.state !== "proposed"
      ? `v${saved.version} is ${info ? info.state : "gone"}`
      : `its parent ${name(saved.parent)} is no longer the head (now ${head === null ? "empty" : `v${head}`})`;
  if (info?.state === "proposed")
    await deps.writer.decide(abandonedDecision(saved.version, saved.parent, why), out);
  return null;
}

/** No version stays proposed without a decision: one written by a learner that stopped before its canary started. */
export async function abandonStrays(
  deps: ResumeDeps,
  keep: number | null,
  out: OnlineEvent[],
): Promise<void> {
  for (const version of await deps.store.listVersions(deps.domain)) {
    if (version.state !== "proposed" || version.version === keep) continue;
    await deps.writer.decide(
      abandonedDecision(
        version.version,
        version.parent,
        "proposed by a learner that stopped before its canary could decide it",
      ),
      out,
    );
  }
}
