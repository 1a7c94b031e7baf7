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
import { createReflectionTrigger, type TriggerFiring, type TriggerState } from "./reflection-trigger.js";
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
  /** The clock of the canary deadline. */
  now?: () => Date;
  /** Events kept in `events` (the oldest are dropped beyond it). Default 1,000. */
  maxEvents?: number;
}

/**
 * The learner's durable state (JSON), written to the store by the lease holder and read back by a learner that
 * restarts or takes over: the cursor, the trigger's window, the canary, the probation of a promoted head.
 */
export interface OnlineLearnerSnapshot {
  format: 1;
  /** The run of the learner that wrote it. */
  runId: string;
  /** The `seq` of the last outcome observed (0: none). */
  cursor: number;
  observed: number;
  reflections: number;
  /** The head as the learner last saw it. */
  head: number | null;
  trigger: TriggerState;
  /** A reflection due while a canary ran, waiting for its decision. */
  deferred: TriggerFiring | null;
  canary: {
    version: number;
    parent: number | null;
    share: number;
    /** The cursor when it started: its outcomes and the head's since are the ones after it. */
    startCursor: number;
    startedAt: string;
    deadlineAt: string;
    outcomes: number;
    headOutcomes: number;
  } | null;
  probation: { previous: number | null; versions: number[]; reference: boolean[]; served: boolean[] } | null;
  /** The last decisions (gates, rollbacks, abandoned and inconclusive canaries), newest last. */
  decisions: OnlineDecisionRecord[];
}

export interface OnlineDecisionRecord {
  at: number;
  time: string;
  kind: "gate" | "rollback" | "abandoned" | "inconclusive";
  version: number;
  decision: string;
  reason: string;
}

/** What a resumed learner re-reads from the outcome store (outcomes up to the snapshot's cursor). */
export interface OnlineLearnerHistory {
  /** Outcomes of the canary version since it started. */
  canary: OnlineOutcome[];
  /** Outcomes of the canary's parent since it started. */
  head: OnlineOutcome[];
  /** The most recent outcomes, for the next reflection's pool. */
  pool: OnlineOutcome[];
}

export interface OnlineLearnerState {
  head: number | null;
  canary: { version: number; parent: number | null; outcomes: number } | null;
  observed: number;
  reflections: number;
  windowRate: number | null;
  cursor: number;
}

export interface OnlineLearner {
  /** The settings in force (`reconfigure` replaces them). */
  readonly config: OnlineConfig;
  /** Reads the head from the store; call once before serving (or `resume` instead). */
  start(): Promise<void>;
  /**
   * Continues from a durable snapshot (a restart or a takeover): the cursor, the trigger's window, the probation and
   * the canary, whose outcomes so far come from `history`. A canary that cannot go on (its version is no longer
   * proposed, or its parent is no longer the head) is rejected as "abandoned"; so is every other version left
   * `proposed` (a learner that stopped between writing it and starting its canary). Returns the events.
   */
  resume(snapshot: OnlineLearnerSnapshot | null, history: OnlineLearnerHistory): Promise<OnlineEvent[]>;
  /** The durable state now (what the lease holder writes to the store). */
  snapshot(): OnlineLearnerSnapshot;
  /** Checks the canary's deadline without an outcome (the learner loop calls it when traffic stops). Serialized. */
  tick(): Promise<OnlineEvent[]>;
  /** New settings (a re-read settings file); they apply from the next outcome on. */
  reconfigure(config: OnlineConfigInput): void;
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
  share: number;
  startCursor: number;
  startedAt: string;
  deadlineAt: string;
  outcomes: OnlineOutcome[];
  /** The head's outcomes while the canary ran: its comparison (the latest few times the canary's budget). */
  headOutcomes: OnlineOutcome[];
}

const maxDecisions = 20;

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
  let config = resolveOnlineConfig(options.config);
  const { domain, runId, store, models } = options;
  const now = options.now ?? (() => new Date());
  const maxEvents = options.maxEvents ?? 1000;
  let gateConfig = canaryGateConfig(config.rollout);
  const makeCurator = () =>
    createCurator({
      store,
      models,
      // Its lifecycle decides on contrasts only (see onlineCuratorConfig).
      config: onlineCuratorConfig(options.curator, { gate: gateConfig }),
    });
  let curator = makeCurator();
  // The tasks of the pool and of a canary's comparison: a few hundred texts, not the default 100,000 vectors.
  const cache = createEmbeddingCache({ embed: (texts) => models.embed([...texts]), maxEntries: 4096 });
  const embed = async (texts: readonly string[]) => {
    const unique = [...new Set(texts)];
    const vectors = await cache.embed(unique);
    return new Map<string, ArrayLike<number>>(unique.map((text, index) => [text, vectors[index]!]));
  };
  const random = seededRandom(options.seed ?? 1);
  let trigger = createReflectionTrigger(config.trigger);
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
  let cursor = 0;
  let pendingConfig: OnlineConfig | null = null;
  const decisions: OnlineDecisionRecord[] = [];
  let queue: Promise<unknown> = Promise.resolve();

  const emit = (event: OnlineEvent, out: OnlineEvent[]) => {
    events.push(event);
    if (events.length > maxEvents) events.splice(0, events.length - maxEvents);
    out.push(event);
    options.onEvent?.(event);
  };
  const decided = (record: Omit<OnlineDecisionRecord, "at" | "time">) => {
    decisions.push({ at: observed, time: now().toISOString(), ...record });
    if (decisions.length > maxDecisions) decisions.splice(0, decisions.length - maxDecisions);
  };
  /** At most this many head outcomes are kept for a canary's comparison (pairing takes the nearest task). */
  const headOutcomeBound = () => Math.max(config.rollout.minReference, config.rollout.canaryOutcomes) * 4;
  const emptyGate = () =>
    decideGate({ candidateScores: [], headScores: [], stage: "full", config: gateConfig });

  function startCanary(version: number, parent: number | null, out: OnlineEvent[]): void {
    const started = now();
    canary = {
      version,
      parent,
      share: config.rollout.canaryShare,
      startCursor: cursor,
      startedAt: started.toISOString(),
      deadlineAt: new Date(started.getTime() + config.rollout.canaryDeadlineSeconds * 1000).toISOString(),
      outcomes: [],
      headOutcomes: [],
    };
    emit({ type: "canary-start", at: observed, version, parent, share: config.rollout.canaryShare }, out);
  }

  /** Rejects a proposed version that no canary will decide, with the reason stored on it. */
  async function abandon(version: number, parent: number | null, why: string, out: OnlineEvent[]) {
    const info = await store.getVersionInfo(domain, version);
    if (info?.state !== "proposed") return;
    const decision: GateDecision = {
      ...emptyGate(),
      decision: "reject",
      reason: `abandoned: ${why}`,
      details: { rule: "abandoned", candidateVersion: version, headVersion: parent },
    };
    await store.setVersionState(domain, version, "rejected", decision);
    decided({ kind: "abandoned", version, decision: "reject", reason: decision.reason });
    emit({ type: "gate", at: observed, version, headVersion: parent, decision }, out);
  }

  async function reflect(firing: TriggerFiring, out: OnlineEvent[]): Promise<void> {
    reflections++;
    const id = `${runId}:reflection-${reflections}`;
    // Another process may have moved the head (an operator's rollback, a manual edit): build on what is there now.
    head = await store.getHeadVersion(domain);
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
    if (version !== null) startCanary(version, head, out);
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
    const late = now().getTime() >= Date.parse(current.deadlineAt);
    if (!early.rollback && !due && !late) return;
    // The head may have moved under the canary (another writer): its comparison no longer holds.
    const currentHead = await store.getHeadVersion(domain);
    if (currentHead !== current.parent) {
      canary = null;
      await abandon(
        current.version,
        current.parent,
        `its parent ${current.parent === null ? "(the empty library)" : `v${current.parent}`} is no longer the head (now ${currentHead === null ? "empty" : `v${currentHead}`})`,
        out,
      );
      head = currentHead;
      return;
    }
    if (!early.rollback && !due) {
      // Late: not enough reports by the deadline. Decided as inconclusive, so it blocks no later reflection.
      canary = null;
      const decision: GateDecision = {
        ...emptyGate(),
        decision: "inconclusive",
        reason:
          `inconclusive: canary v${current.version} had ${current.outcomes.length} of the ${rollout.canaryOutcomes} outcomes ` +
          `it needs (${current.headOutcomes.length} of the head's, ${rollout.minReference} needed) by its deadline ` +
          `${current.deadlineAt} (${rollout.canaryDeadlineSeconds} s after it started)`,
        details: {
          rule: "deadline",
          canaryOutcomes: current.outcomes.length,
          headOutcomes: current.headOutcomes.length,
          deadlineAt: current.deadlineAt,
          candidateVersion: current.version,
          headVersion: current.parent,
        },
      };
      await store.setVersionState(domain, current.version, "rejected", decision);
      decided({
        kind: "inconclusive",
        version: current.version,
        decision: "inconclusive",
        reason: decision.reason,
      });
      emit(
        { type: "gate", at: observed, version: current.version, headVersion: current.parent, decision },
        out,
      );
      return;
    }
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
      decided({ kind: "rollback", version: current.version, decision: "reject", reason: decision.reason });
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
    decided({ kind: "gate", version: current.version, decision: decision.decision, reason: decision.reason });
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
    // The head as it is now: a rollback undoes the version the learner promoted, never someone else's newer write.
    const from = await store.getHeadVersion(domain);
    if (from === null || !probation.versions.has(from)) {
      head = from;
      probation = null;
      return;
    }
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
      restored = (await store.rollback(domain, to, { runId, message, expectedHead: from })).version;
    }
    head = restored;
    probation = null;
    decided({ kind: "rollback", version: from, decision: "rollback", reason: message });
    if (canary !== null) {
      // The canary was measured against the version just undone: its comparison is void.
      const voided = canary;
      canary = null;
      await store.setVersionState(domain, voided.version, "rejected", {
        ...emptyGate(),
        reason: `its parent v${from} was rolled back before the canary finished`,
      });
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

  /** A reflection due and no canary out: run it (settings re-read from a file apply from here). */
  async function reflectIfDue(out: OnlineEvent[]): Promise<void> {
    if (canary !== null) await decideCanary(canary, out);
    if (pendingConfig !== null && canary === null) {
      config = pendingConfig;
      pendingConfig = null;
      gateConfig = canaryGateConfig(config.rollout);
      curator = makeCurator();
      trigger = createReflectionTrigger(config.trigger, trigger.snapshot());
    }
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
  }

  async function handle(outcome: OnlineOutcome): Promise<OnlineEvent[]> {
    const out: OnlineEvent[] = [];
    observed++;
    if (outcome.seq !== undefined) cursor = Math.max(cursor, outcome.seq);
    pool.push(outcome);
    if (pool.length > config.groups.pool * 2) pool.splice(0, pool.length - config.groups.pool);
    const current = canary as Canary | null;
    if (current !== null) {
      // The comparison needs the task and the result only: no trajectory is held for the canary's lifetime.
      if (outcome.version === current.version) current.outcomes.push(slimOutcome(outcome));
      else if (outcome.version === current.parent) {
        current.headOutcomes.push(slimOutcome(outcome));
        const bound = headOutcomeBound();
        if (current.headOutcomes.length > bound)
          current.headOutcomes.splice(0, current.headOutcomes.length - bound);
      }
    }
    await checkHead(outcome, out);
    const firing = trigger.observe(outcome.success);
    if (firing) deferred = firing;
    await reflectIfDue(out);
    return out;
  }

  async function resume(
    snapshot: OnlineLearnerSnapshot | null,
    history: OnlineLearnerHistory,
  ): Promise<OnlineEvent[]> {
    const out: OnlineEvent[] = [];
    head = await store.getHeadVersion(domain);
    pool.splice(0, pool.length, ...history.pool.slice(-config.groups.pool));
    if (snapshot !== null) {
      cursor = snapshot.cursor;
      observed = snapshot.observed;
      reflections = snapshot.reflections;
      trigger = createReflectionTrigger(config.trigger, snapshot.trigger);
      deferred = snapshot.deferred;
      decisions.splice(0, decisions.length, ...snapshot.decisions);
      probation = snapshot.probation
        ? { ...snapshot.probation, versions: new Set(snapshot.probation.versions) }
        : null;
      const saved = snapshot.canary;
      if (saved !== null) {
        const info = await store.getVersionInfo(domain, saved.version);
        if (info?.state === "proposed" && head === saved.parent) {
          canary = {
            ...saved,
            outcomes: history.canary.filter((o) => o.version === saved.version).map(slimOutcome),
            headOutcomes: history.head
              .filter((o) => o.version === saved.parent)
              .slice(-headOutcomeBound())
              .map(slimOutcome),
          };
        } else {
          await abandon(
            saved.version,
            saved.parent,
            info?.state !== "proposed"
              ? `v${saved.version} is ${info ? info.state : "gone"}`
              : `its parent ${saved.parent === null ? "(the empty library)" : `v${saved.parent}`} is no longer the head`,
            out,
          );
        }
      }
    }
    // No version stays proposed without a decision: one written by a learner that stopped before its canary started.
    for (const version of await store.listVersions(domain)) {
      if (version.state !== "proposed") continue;
      if ((canary as Canary | null)?.version === version.version) continue;
      await abandon(
        version.version,
        version.parent,
        "proposed by a learner that stopped before its canary could decide it",
        out,
      );
    }
    return out;
  }

  const serialized = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn);
    queue = run.catch(() => {});
    return run;
  };

  return {
    get config() {
      return config;
    },
    async start() {
      head = await store.getHeadVersion(domain);
    },
    resume: (snapshot, history) => serialized(() => resume(snapshot, history)),
    snapshot() {
      const current = canary as Canary | null;
      return {
        format: 1,
        runId,
        cursor,
        observed,
        reflections,
        head,
        trigger: trigger.snapshot(),
        deferred,
        canary: current
          ? {
              version: current.version,
              parent: current.parent,
              share: current.share,
              startCursor: current.startCursor,
              startedAt: current.startedAt,
              deadlineAt: current.deadlineAt,
              outcomes: current.outcomes.length,
              headOutcomes: current.headOutcomes.length,
            }
          : null,
        probation: probation
          ? {
              previous: probation.previous,
              versions: [...probation.versions],
              reference: [...probation.reference],
              served: [...probation.served],
            }
          : null,
        decisions: [...decisions],
      };
    },
    tick: () =>
      serialized(async () => {
        const out: OnlineEvent[] = [];
        await reflectIfDue(out);
        return out;
      }),
    reconfigure(input) {
      pendingConfig = resolveOnlineConfig(input);
    },
    route() {
      const current = canary as Canary | null;
      if (current !== null && random() < current.share) return { version: current.version, arm: "canary" };
      return { version: head, arm: "head" };
    },
    observe: (outcome) => serialized(() => handle(outcome)),
    state() {
      const current = canary as Canary | null;
      return {
        head,
        canary: current
          ? { version: current.version, parent: current.parent, outcomes: current.outcomes.length }
          : null,
        observed,
        reflections,
        windowRate: trigger.windowRate(),
        cursor,
      };
    },
    events,
  };
}

/** An outcome without its trajectory: what a canary's comparison keeps (the task and the result). */
function slimOutcome(outcome: OnlineOutcome): OnlineOutcome {
  const { trajectory: _trajectory, ...slim } = outcome;
  return slim;
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
