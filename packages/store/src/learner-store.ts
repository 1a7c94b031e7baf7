/**
 * The online learner's durable side (issue 26): one row per domain holding the learner's lease, its state and the
 * operator's pause flag. Every serving process records outcomes; exactly one learner per domain learns from them,
 * the one holding the lease. The lease is a compare-and-set on the row (holder, expiry): whoever finds it free or
 * expired takes it, the holder renews it, and a state write is refused unless the writer is still the holder (so a
 * learner that lost its lease cannot overwrite its successor's state).
 */

export interface LearnerLease {
  /** Unique per learner process (e.g. a UUID). */
  holder: string;
  host: string;
  pid: number;
  acquiredAt: string;
  renewedAt: string;
  /** ISO time the lease runs out unless renewed. */
  expiresAt: string;
}

export interface LearnerRecord {
  domain: string;
  /** The last lease taken (it may have run out: compare `expiresAt` with now); null when none was ever taken. */
  lease: LearnerLease | null;
  /** The learner's own state (JSON), as its holder last wrote it; null before the first write. */
  state: Record<string, unknown> | null;
  stateUpdatedAt: string | null;
  /** Set by the operator: serving goes on, learning stops. */
  paused: boolean;
  pausedAt: string | null;
}

export interface LeaseRequest {
  holder: string;
  host: string;
  pid: number;
  /** How long the lease lasts without a renewal. */
  ttlMs: number;
  now?: Date;
}

export interface LeaseAttempt {
  acquired: boolean;
  /** The lease as it stands after the attempt (the caller's when acquired, the other holder's otherwise). */
  lease: LearnerLease | null;
  /** The lease before the attempt (on a takeover: the holder that went away). */
  previous: LearnerLease | null;
}

export interface LearnerStore {
  /** Takes the domain's lease when it is free, run out, or already the caller's. */
  acquireLearnerLease(domain: string, request: LeaseRequest): Promise<LeaseAttempt>;
  /** Extends the caller's lease; false when another holder has it now (the caller must stop learning). */
  renewLearnerLease(domain: string, holder: string, ttlMs: number, now?: Date): Promise<boolean>;
  /** Ends the caller's lease at once (a clean stop), so a waiting learner takes over without waiting out the TTL. */
  releaseLearnerLease(domain: string, holder: string, now?: Date): Promise<void>;
  /** Writes the learner state; `conflict` when `holder` does not hold the lease (nothing is written). */
  saveLearnerState(domain: string, holder: string, state: Record<string, unknown>, now?: Date): Promise<void>;
  getLearner(domain: string): Promise<LearnerRecord | null>;
  /** Every domain with a learner row, by domain. */
  listLearners(): Promise<LearnerRecord[]>;
  /** The operator's pause (true) or resume (false); creates the row when missing. */
  setLearnerPaused(domain: string, paused: boolean, now?: Date): Promise<LearnerRecord>;
}

/** A learner row as both backends store it (`online_learners`). */
export interface LearnerRow {
  domain: string;
  holder: string | null;
  host: string | null;
  pid: number | null;
  lease_acquired_at: string | null;
  lease_renewed_at: string | null;
  /** Epoch milliseconds (a string from PostgreSQL's BIGINT). */
  lease_expires_ms: number | string | null;
  state: string | null;
  state_updated_at: string | null;
  paused: number | boolean;
  paused_at: string | null;
}

export function toLearnerLease(row: LearnerRow): LearnerLease | null {
  if (row.holder === null) return null;
  return {
    holder: row.holder,
    host: row.host ?? "",
    pid: Number(row.pid ?? 0),
    acquiredAt: row.lease_acquired_at ?? "",
    renewedAt: row.lease_renewed_at ?? "",
    expiresAt: new Date(Number(row.lease_expires_ms ?? 0)).toISOString(),
  };
}

export function toLearnerRecord(
  row: LearnerRow,
  parseState: (text: string) => Record<string, unknown>,
): LearnerRecord {
  return {
    domain: row.domain,
    lease: toLearnerLease(row),
    state: row.state === null ? null : parseState(row.state),
    stateUpdatedAt: row.state_updated_at,
    paused: row.paused === true || row.paused === 1,
    pausedAt: row.paused_at,
  };
}

export function leaseLost(domain: string, holder: string, current: string | null) {
  return {
    message: `the learner lease of ${domain} is not held by ${holder} (${current === null ? "nobody holds it" : `held by ${current}`}); state not written`,
    // Typed: a caller tells a lost lease from other conflicts by `reason`, never by the message.
    details: { domain, holder, current, reason: "lease-lost" as const },
  };
}
