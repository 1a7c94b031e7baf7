import { type CuratorConfigInput, createCurator, decideGate } from "@tfgrpo/curator";
import type { Models } from "@tfgrpo/models";
import { createEmbeddingCache, type GateDecision, type Operation, seededRandom } from "@tfgrpo/protocol";
import type { LibraryStore } from "@tfgrpo/store";
import { canaryGateConfig, canaryLooks } from "./canary-gate-config.js";
import { type OnlineConfig, type OnlineConfigInput, resolveOnlineConfig } from "./online-config.js";
import { onlineCuratorConfig } from "./online-curator-config.js";
import type { OnlineEvent } from "./online-events.js";
import type { OnlineOutcome, SummarizeOutcome } from "./online-outcome.js";
import { reflectOnline } from "./online-reflection.js";
import { pairByTask } from "./pair-by-task.js";
import { createReflectionTrigger, type TriggerFiring } from "./reflection-trigger.js";
import { checkRollback, type RollbackCheck } from "./rollback-rule.js";

export interface CreateOnlineLearnerOptions {
  domain: string;
  /** Recorded on every version and decision this learner writes. */
  runId: string;
  store: LibraryStore;
  models: Pick<Models, "structured" | "embed">;
  config?: OnlineConfigInput;
  /** The curator's own settings (consolidation, conflicts); its gate is set from `config.rollout`. */
  curator?: CuratorConfigInput;
  summarize?: SummarizeOutcome;
  /** Marks the outcomes a reflection used (the outcome store's `markConsumed`). */
  markConsumed?: (domain: string, selectionIds: readonly string[], reflectionId: string) => Promise<unknown>;
  /** Seeds the canary draw. */
  seed?: number;
  onEvent?: (event: OnlineEvent) => void;
}

export interface OnlineLearnerState {
  head: number | null;
  canary: { version: number; parent: number | null; outcomes: number } | null;
  observed: number;
  reflections: number;
  windowRate: number | null;
}

export interface OnlineLearner {
  readonly config: OnlineConfig;
  /** Reads the head from the store; call once before serving. */
  start(): Promise<void>;
  /** Which version serves the next task: the canary for its share of traffic, else the head. */
  route(): { version: number | null; arm: "head" | "canary" };
  /** One reported outcome: trigger, reflection, canary gate and rollback, in that order. Serialized. */
  observe(outcome: OnlineOutcome): Promise<OnlineEvent[]>;
  state(): OnlineLearnerState;
  readonly events: readonly OnlineEvent[];
}

interface Canary {
  version: number;
  parent: number | null;
  outcomes: OnlineOutcome[];
  /** The head's outcomes while the canary ran: its comparison. */
  headOutcomes: OnlineOutcome[];
}

/**
 * Online learning while serving (seed 002 §3.2, §5): outcomes stream in (each settling the contrasts of the entries
 * its request varied, in the store); the trigger starts a reflection every B
 * outcomes or at once on a success drop; the reflection's proposals go through the curator (the same
 * consolidation, conflicts, lifecycle and ids as offline) into a proposed version; that version serves a canary
 * share of traffic and the same gate as offline (paired by nearest task) decides whether it becomes the head; a
 * version whose window success falls below the previous version's by a margin is rolled back automatically.
 * Every decision is stored on the version records (gate decision, or the rollback version's message).
 */
export function createOnlineLearner(options: CreateOnlineLearnerOptions): OnlineLearner {
  const config = resolveOnlineConfig(options.config);
  const { domain, runId, store, models } = options;
  const gateConfig = canaryGateConfig(config.rollout);
  const curator = createCurator({
    store,
    models,
    // Its lifecycle decides on contrasts only (see onlineCuratorConfig).
    config: onlineCuratorConfig(options.curator, { gate: gateConfig }),
  });
  const cache = createEmbeddingCache({ embed: (texts) => models.embed([...texts]) });
  const embed = async (texts: readonly string[]) => {
    const unique = [...new Set(texts)];
    const vectors = await cache.embed(unique);
    return new Map<string, ArrayLike<number>>(unique.map((text, index) => [text, vectors[index]!]));
  };
  const random = seededRandom(options.seed ?? 1);
  const trigger = createReflectionTrigger(config.trigger);
  const events: OnlineEvent[] = [];
  const pool: OnlineOutcome[] = [];
  let head: number | null = null;
  let canary: Canary | null = null;
  /** The promoted head on probation: its outcomes against the previous head's rate. */
  let probation: {
    previous: number | null;
    /** The promoted version and the lifecycle versions written on it since. */
    versions: Set<number>;
    reference: boolean[];
    served: boolean[];
  } | null = null;
  let deferred: TriggerFiring | null = null;
  let observed = 0;
  let reflections = 0;
  let queue: Promise<unknown> = Promise.resolve();

  const emit = (event: OnlineEvent, out: OnlineEvent[]) => {
    events.push(event);
    out.push(event);
    options.onEvent?.(event);
  };

  async function reflect(firing: TriggerFiring, out: OnlineEvent[]): Promise<void> {
    reflections++;
    const id = `${runId}:reflection-${reflections}`;
    // As offline, lifecycle before advice: entries move on the credit live outcomes gave them (candidate -> active,
    // harmful -> probation -> archived), as a committed bookkeeping version the proposals then build on.
    let lifecycle: { version: number; moves: number } | null = null;
    if (head !== null) {
      const moved = await curator.updateLifecycle(domain, head, { runId });
      if (moved.version !== null) {
        lifecycle = { version: moved.version, moves: moved.transitions.length };
        probation?.versions.add(moved.version);
        head = moved.version;
      }
    }
    const snapshot = head === null ? null : await store.getVersion(domain, head);
    const experiences = (snapshot?.experiences ?? [])
      .filter((entry) => entry.status !== "archived")
      .map((entry) => ({ id: entry.id, text: entry.text }));
    const result = await reflectOnline({
      reflectionId: id,
      pool: pool.slice(-config.groups.pool),
      experiences,
      config,
      models,
      embed,
      ...(options.summarize ? { summarize: options.summarize } : {}),
    });
    let version: number | null = null;
    const notes = result.dropped.map((item) => `${item.groupId}: dropped (${item.reason})`);
    if (result.proposals.length > 0) {
      const consolidated = await curator.consolidate({
        runId,
        domain,
        baseVersion: head,
        proposals: result.proposals,
      });
      version = consolidated.version;
      notes.push(...consolidated.notes);
    }
    if (result.used.length > 0) await options.markConsumed?.(domain, result.used, id);
    emit(
      {
        type: "reflection",
        id,
        at: observed,
        reason: firing.reason,
        windowRate: firing.windowRate,
        groups: result.groups.length,
        differences: result.differences,
        proposals: result.proposals.length,
        version,
        lifecycle,
        notes,
      },
      out,
    );
    if (version !== null) {
      canary = { version, parent: head, outcomes: [], headOutcomes: [] };
      emit(
        { type: "canary-start", at: observed, version, parent: head, share: config.rollout.canaryShare },
        out,
      );
    }
  }

  async function decideCanary(current: Canary, out: OnlineEvent[]): Promise<void> {
    const { rollout } = config;
    const early = checkRollback({
      served: current.outcomes.map((o) => o.success),
      reference: current.headOutcomes.map((o) => o.success),
      window: rollout.rollbackWindow,
      looks: canaryLooks(rollout),
      minReference: rollout.minReference,
      alpha: rollout.alpha,
      margin: rollout.rollbackMargin,
    });
    // The gate waits for its budget and a minimum reference; a canary that cannot get one (a head with almost no
    // traffic) is decided at three times its budget on what there is.
    const due =
      current.outcomes.length >= rollout.canaryOutcomes &&
      (current.headOutcomes.length >= rollout.minReference ||
        current.outcomes.length >= 3 * rollout.canaryOutcomes);
    if (!early.rollback && !due) return;
    const vectors = await embed([...current.outcomes, ...current.headOutcomes].map((o) => o.task));
    const pairing = pairByTask(current.outcomes, current.headOutcomes, vectors);
    const pairingDetails = {
      pairing: "nearest task served to the head meanwhile",
      meanPairSimilarity: pairing.meanSimilarity,
      reusedHeadOutcomes: pairing.reused,
      canaryOutcomes: current.outcomes.length,
      headOutcomes: current.headOutcomes.length,
    };
    canary = null;
    if (early.rollback) {
      const measured = decideGate({
        candidateScores: pairing.candidateScores,
        headScores: pairing.headScores,
        stage: "full",
        config: gateConfig,
      });
      const decision: GateDecision = {
        ...measured,
        decision: "reject",
        reason:
          `rollback: canary v${current.version} ${rollbackEvidence(early, current.headOutcomes.length, rollout.rollbackMargin)}: ` +
          `canary stopped (paired gate numbers: ${measured.reason})`,
        details: {
          ...measured.details,
          ...pairingDetails,
          rule: "rollback",
          servedRate: early.servedRate,
          referenceRate: early.referenceRate,
          rollbackMargin: rollout.rollbackMargin,
          rollbackTest: early.test,
          headVersion: current.parent,
          candidateVersion: current.version,
        },
      };
      await store.setVersionState(domain, current.version, "rejected", decision);
      emit(
        { type: "gate", at: observed, version: current.version, headVersion: current.parent, decision },
        out,
      );
      emit(
        {
          type: "rollback",
          at: observed,
          stage: "canary",
          from: current.version,
          to: current.parent,
          restoredAs: null,
          servedRate: early.servedRate!,
          referenceRate: early.referenceRate!,
          margin: rollout.rollbackMargin,
          window: early.window,
        },
        out,
      );
      return;
    }
    const gated = await curator.gate({
      domain,
      candidateVersion: current.version,
      headVersion: current.parent,
      candidateScores: pairing.candidateScores,
      headScores: pairing.headScores,
      stage: "full",
      samplesPerTask: 1,
    });
    const decision: GateDecision = { ...gated, details: { ...gated.details, ...pairingDetails } };
    if (decision.decision === "commit") {
      // The curator stored its decision on the version; the pairing numbers travel in the event and run summary.
      head = current.version;
      probation = {
        previous: current.parent,
        versions: new Set([current.version]),
        reference: current.headOutcomes.map((o) => o.success),
        // Only outcomes since the promotion: the canary's are what the gate already judged, and would hide a version
        // that does worse on full traffic than it did as a canary.
        served: [],
      };
    }
    emit(
      { type: "gate", at: observed, version: current.version, headVersion: current.parent, decision },
      out,
    );
  }

  async function checkHead(outcome: OnlineOutcome, out: OnlineEvent[]): Promise<void> {
    if (
      probation === null ||
      head === null ||
      outcome.version === null ||
      !probation.versions.has(outcome.version)
    )
      return;
    probation.served.push(outcome.success);
    const { rollout } = config;
    const check = checkRollback({
      served: probation.served,
      reference: probation.reference,
      window: rollout.rollbackWindow,
      looks: rollout.probationWindows,
      minReference: rollout.minReference,
      alpha: rollout.alpha,
      margin: rollout.rollbackMargin,
    });
    if (!check.rollback) {
      // Probation ends after a few windows: later drops are drift, for reflection to answer, not the version's fault.
      if (probation.served.length >= rollout.rollbackWindow * rollout.probationWindows) probation = null;
      return;
    }
    const from = head;
    const to = probation.previous;
    const message = `online rollback: v${from} ${rollbackEvidence(check, probation.reference.length, rollout.rollbackMargin)} (${to === null ? "the empty library" : `v${to}`})`;
    let restored: number;
    if (to === null) {
      const snapshot = await store.getVersion(domain, from);
      const ops: Operation[] = (snapshot?.experiences ?? [])
        .filter((entry) => entry.status !== "archived")
        .map((entry) => ({ op: "delete", id: entry.id, reason: message }) as Operation);
      const applied = await store.applyOperations(domain, ops, {
        parent: from,
        state: "committed",
        runId,
        message,
      });
      restored = applied.version.version;
    } else {
      restored = (await store.rollback(domain, to, { runId, message })).version;
    }
    head = restored;
    probation = null;
    if (canary !== null) {
      // The canary was measured against the version just undone: its comparison is void.
      await store.setVersionState(domain, canary.version, "rejected", {
        ...decideGate({ candidateScores: [], headScores: [], stage: "full", config: gateConfig }),
        reason: `its parent v${from} was rolled back before the canary finished`,
      });
      canary = null;
    }
    emit(
      {
        type: "rollback",
        at: observed,
        stage: "head",
        from,
        to,
        restoredAs: restored,
        servedRate: check.servedRate!,
        referenceRate: check.referenceRate!,
        margin: rollout.rollbackMargin,
        window: check.window,
      },
      out,
    );
  }

  async function handle(outcome: OnlineOutcome): Promise<OnlineEvent[]> {
    const out: OnlineEvent[] = [];
    observed++;
    pool.push(outcome);
    if (pool.length > config.groups.pool * 2) pool.splice(0, pool.length - config.groups.pool);
    const current = canary;
    if (current !== null) {
      if (outcome.version === current.version) current.outcomes.push(outcome);
      else if (outcome.version === current.parent) current.headOutcomes.push(outcome);
    }
    await checkHead(outcome, out);
    const firing = trigger.observe(outcome.success);
    if (firing) deferred = firing;
    if (canary !== null) await decideCanary(canary, out);
    // One candidate at a time: a reflection due while a canary runs waits for its decision.
    if (deferred !== null && canary === null) {
      const due = deferred;
      deferred = null;
      try {
        await reflect(due, out);
      } finally {
        trigger.reflected();
      }
    }
    return out;
  }

  return {
    config,
    async start() {
      head = await store.getHeadVersion(domain);
    },
    route() {
      if (canary !== null && random() < config.rollout.canaryShare)
        return { version: canary.version, arm: "canary" };
      return { version: head, arm: "head" };
    },
    observe(outcome) {
      const run = queue.then(() => handle(outcome));
      queue = run.catch(() => {});
      return run;
    },
    state() {
      return {
        head,
        canary: canary
          ? { version: canary.version, parent: canary.parent, outcomes: canary.outcomes.length }
          : null,
        observed,
        reflections,
        windowRate: trigger.windowRate(),
      };
    },
    events,
  };
}

/** The numbers behind a rollback, for its stored reason. */
function rollbackEvidence(check: RollbackCheck, referenceOutcomes: number, margin: number): string {
  const test = check.test;
  const served = test ? test.n : 0;
  return (
    `succeeded on ${show(check.servedRate)} of its ${served} tasks vs ${show(check.referenceRate)} of the previous ` +
    `version's ${referenceOutcomes}: difference ${show(test?.estimate ?? null)}, ${show(1 - (test?.alpha ?? 0))} upper ` +
    `bound ${show(test?.upper ?? null)} below -${show(margin)}`
  );
}

function show(value: number | null): string {
  return value === null ? "n/a" : value.toFixed(3);
}
