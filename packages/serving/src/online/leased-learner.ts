import { TfgrpoError } from "@tfgrpo/protocol";
import type { LearnerLease, LearnerStore, LibraryStore, OutcomeStore, StoredOutcome } from "@tfgrpo/store";
import { type OnlineLearnerSnapshot, parseLearnerSnapshot } from "./learner-snapshot.js";
import type { OnlineConfigInput } from "./online-config.js";
import type { OnlineEvent } from "./online-events.js";
import type { OnlineLearner, OnlineLearnerHistory } from "./online-learner-api.js";
import { createOnlineMetrics, type OnlineMetrics } from "./online-metrics.js";
import type { OnlineOutcome } from "./online-outcome.js";

export type LeasedLearnerStore = LibraryStore & OutcomeStore & LearnerStore;

export interface LeaseSettings {
  /** How long a lease lasts without a renewal: a holder gone this long is taken over. Default 15 s. */
  ttlMs: number;
  /** How often the holder renews it (well under the TTL). Default 5 s. */
  renewEveryMs: number;
}

export const defaultLeaseSettings: LeaseSettings = { ttlMs: 15_000, renewEveryMs: 5_000 };

export interface RunLeasedLearnerOptions {
  store: LeasedLearnerStore;
  domain: string;
  /** A fresh learner each time the lease is taken (its state then comes from the store). */
  createLearner: () => OnlineLearner | Promise<OnlineLearner>;
  /** Unique per process. */
  holder: string;
  host: string;
  pid: number;
  lease?: Partial<LeaseSettings>;
  /** How often the store is read for new outcomes (and the lease tried while waiting). Default 500 ms. */
  pollMs?: number;
  /** Outcomes read at once. Default 200. */
  batch?: number;
  /**
   * Only outcomes reported at least this long ago are read: concurrent writers of PostgreSQL may commit a lower
   * `seq` after a higher one, and the cursor must not pass it. Default 1 s.
   */
  settleMs?: number;
  /** Re-reads the settings (e.g. the settings file) between reflections; null: unchanged. */
  reloadSettings?: () => Promise<OnlineConfigInput | null>;
  /** After the lease is taken and before learning: the lease that was there before and the stored state. */
  onTakeover?: (info: {
    previous: LearnerLease | null;
    snapshot: OnlineLearnerSnapshot | null;
  }) => Promise<void>;
  onEvent?: (event: OnlineEvent) => void;
  /** Every outcome learned from, after the learner observed it. */
  onOutcome?: (outcome: StoredOutcome, learner: OnlineLearner) => void;
  log?: (line: string) => void;
  /** Stops the loop (state written, lease released). */
  signal?: AbortSignal;
  /** Stop after this many outcomes observed by this process. */
  maxOutcomes?: number;
  now?: () => Date;
  /** Where the learner's metrics go (default: the OpenTelemetry API's global meter, a no-op until one is set up). */
  metrics?: OnlineMetrics;
}

export interface LeasedLearnerResult {
  observed: number;
  /** The learner of the last lease held (null when none was taken). */
  learner: OnlineLearner | null;
  stopped: "signal" | "max-outcomes";
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });

export function toOnlineOutcome(stored: StoredOutcome): OnlineOutcome {
  return {
    selectionId: stored.selectionId,
    domain: stored.domain,
    version: stored.version,
    task: stored.task,
    reward: stored.reward,
    success: stored.success,
    summary: stored.summary,
    feedback: stored.feedback,
    trajectory: stored.trajectory,
    seq: stored.seq,
  };
}

/** A write refused because another learner holds the lease (the store's typed `reason`, not its wording). */
export function isLeaseLost(error: unknown): boolean {
  return TfgrpoError.hasCode(error, "conflict") && error.details?.reason === "lease-lost";
}

/** The outcomes a resumed learner needs back: its canary's and the canary parent's, and a recent pool. */
async function loadHistory(
  store: LeasedLearnerStore,
  domain: string,
  snapshot: OnlineLearnerSnapshot | null,
  poolSize: number,
): Promise<OnlineLearnerHistory> {
  if (snapshot === null) return { canary: [], head: [], pool: [] };
  const upTo = (list: StoredOutcome[]) => list.filter((o) => o.seq <= snapshot.cursor).map(toOnlineOutcome);
  const pool = upTo(
    await store.listOutcomes({
      domain,
      latest: poolSize,
      after: Math.max(0, snapshot.cursor - 10 * poolSize),
    }),
  );
  const canary = snapshot.canary;
  if (canary === null) return { canary: [], head: [], pool };
  return {
    canary: upTo(await store.listOutcomes({ domain, after: canary.startCursor, version: canary.version })),
    head: upTo(await store.listOutcomes({ domain, after: canary.startCursor, version: canary.parent })),
    pool,
  };
}

/**
 * The learner of one domain as a service (issue 26): waits for the domain's lease, resumes the stored state (cursor,
 * trigger window, canary, probation), then learns from every outcome in the store after its cursor, whoever recorded
 * it, writing its state back after every step that changed something. The lease is renewed in the background; a
 * holder that loses it (it stalled past the TTL and another learner took over) stops learning and waits again with a
 * fresh learner. Paused by the operator, it keeps the lease and learns nothing until resumed. Runs until `signal`.
 */
export async function runLeasedLearner(options: RunLeasedLearnerOptions): Promise<LeasedLearnerResult> {
  const { store, domain, holder } = options;
  const lease = { ...defaultLeaseSettings, ...options.lease };
  const pollMs = options.pollMs ?? 500;
  const batch = options.batch ?? 200;
  const settleMs = options.settleMs ?? 1000;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => {});
  const signal = options.signal;
  let observed = 0;
  let learner: OnlineLearner | null = null;
  let waitingLogged = false;
  let failures = 0;
  const metrics = options.metrics ?? createOnlineMetrics(domain);
  const onEvent = (event: OnlineEvent) => {
    metrics.event(event);
    options.onEvent?.(event);
  };
  const save = (current: OnlineLearner) => store.saveLearnerState(domain, holder, current.snapshot(), now());

  while (!signal?.aborted) {
    const attempt = await store.acquireLearnerLease(domain, {
      holder,
      host: options.host,
      pid: options.pid,
      ttlMs: lease.ttlMs,
      now: now(),
    });
    if (!attempt.acquired) {
      if (!waitingLogged && attempt.lease) {
        log(
          `online learner ${domain}: waiting for the lease held by ${attempt.lease.holder} (pid ${attempt.lease.pid} on ${attempt.lease.host}, until ${attempt.lease.expiresAt})`,
        );
        waitingLogged = true;
      }
      await sleep(pollMs, signal);
      continue;
    }
    waitingLogged = false;
    let lost = false;
    let paused = false;
    let stopping = false;
    const renewal = setInterval(() => {
      store
        .renewLearnerLease(domain, holder, lease.ttlMs, now())
        .then((held: boolean) => {
          if (!held) lost = true;
        })
        .catch((error: Error) =>
          log(`online learner ${domain}: renewing the lease failed: ${error.message}`),
        );
    }, lease.renewEveryMs);
    try {
      const record = await store.getLearner(domain);
      const snapshot = parseLearnerSnapshot(record?.state ?? null);
      const previous = attempt.previous?.holder === holder ? null : attempt.previous;
      log(
        `online learner ${domain}: lease taken by ${holder} (pid ${options.pid})${previous ? ` from ${previous.holder} (pid ${previous.pid})` : ""}; ` +
          (snapshot
            ? `resuming at outcome #${snapshot.cursor}${snapshot.canary ? `, canary v${snapshot.canary.version} (${snapshot.canary.outcomes} outcomes so far)` : ""}`
            : "no stored state: learning from the first outcome"),
      );
      await options.onTakeover?.({ previous, snapshot });
      learner = await options.createLearner();
      const history = await loadHistory(store, domain, snapshot, learner.config.groups.pool);
      metrics.watch(learner);
      const resumed = await learner.resume(snapshot, history);
      for (const event of resumed) onEvent(event);
      await save(learner);
      while (!signal?.aborted && !lost) {
        const stopAt = options.maxOutcomes !== undefined && observed >= options.maxOutcomes;
        if (stopAt) {
          stopping = true;
          return { observed, learner, stopped: "max-outcomes" };
        }
        const current = await store.getLearner(domain);
        // Said once per pause and resume: an operator (or a test) can wait for the learner to have seen it.
        if (Boolean(current?.paused) !== paused) {
          paused = Boolean(current?.paused);
          log(
            paused
              ? `online learner ${domain}: paused at outcome #${learner.state().cursor}; learning nothing until resumed`
              : `online learner ${domain}: resumed at outcome #${learner.state().cursor}`,
          );
        }
        if (paused) {
          await sleep(pollMs, signal);
          continue;
        }
        if (options.reloadSettings) {
          const settings = await options.reloadSettings().catch((error: Error) => {
            log(`online learner ${domain}: settings not re-read: ${error.message}`);
            return null;
          });
          if (settings !== null) learner.reconfigure(settings);
        }
        const before = learner.state().cursor;
        const limit =
          options.maxOutcomes === undefined ? batch : Math.min(batch, options.maxOutcomes - observed);
        const outcomes = await store.listOutcomes({
          domain,
          after: before,
          limit,
          until: new Date(now().getTime() - settleMs),
        });
        // Before learning from a batch (which may write versions), make sure the lease is still this learner's: a
        // holder that stalled past the TTL finds out here, before it writes, not at its next renewal.
        if (outcomes.length > 0 && !(await store.renewLearnerLease(domain, holder, lease.ttlMs, now()))) {
          lost = true;
          break;
        }
        let changed = false;
        for (const stored of outcomes) {
          if (signal?.aborted || lost) break;
          const events = await learner.observe(toOnlineOutcome(stored));
          observed++;
          metrics.outcome(stored.success);
          options.onOutcome?.(stored, learner);
          for (const event of events) onEvent(event);
          changed = true;
          // A decision or a new canary is written to the store at once: a crash right after must not lose it.
          if (events.length > 0) await save(learner);
        }
        if (outcomes.length === 0) {
          const events = await learner.tick();
          for (const event of events) onEvent(event);
          if (events.length > 0) changed = true;
        }
        if (changed) await save(learner);
        failures = 0;
        if (outcomes.length < limit) await sleep(pollMs, signal);
      }
      if (lost) {
        log(`online learner ${domain}: the lease went to another learner; waiting again`);
        continue;
      }
      stopping = true;
    } catch (error) {
      if (isLeaseLost(error)) {
        log(`online learner ${domain}: ${(error as Error).message}; waiting again`);
        continue;
      }
      // A failed step (a model error, a write refused because the head moved): its outcome is not past the stored
      // cursor, so a fresh learner resumed from the store tries again; the same failure three times in a row ends it.
      failures++;
      if (failures >= 3) throw error;
      log(
        `online learner ${domain}: a learning step failed (${(error as Error).message}); resuming from the stored state`,
      );
      await sleep(pollMs, signal);
    } finally {
      clearInterval(renewal);
      metrics.watch(null);
      if (stopping && !lost && learner) {
        await save(learner).catch(() => {});
        await store.releaseLearnerLease(domain, holder, now()).catch(() => {});
      }
    }
  }
  return { observed, learner, stopped: "signal" };
}
