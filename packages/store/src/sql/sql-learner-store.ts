import { TfgrpoError } from "@tfgrpo/protocol";
import {
  type LearnerRecord,
  type LearnerRow,
  type LearnerStore,
  type LeaseAttempt,
  type LeaseRequest,
  leaseLost,
  toLearnerLease,
  toLearnerRecord,
} from "../learner-store.js";
import { all, get, run, type Sql, type SqlPort } from "./sql-port.js";
import { readStoredJson } from "./stored-json.js";

const parseState = (text: string) => readStoredJson<Record<string, unknown>>(text, "online_learners.state");

/** The online learners' lease, state and pause flag (`online_learners`) of a SQL store. */
export class SqlLearnerStore implements LearnerStore {
  constructor(private readonly db: SqlPort) {}

  private row(domain: string, lock = false): Sql<LearnerRow | undefined> {
    const forUpdate = lock ? this.db.dialect.forUpdate : "";
    return get<LearnerRow>(`SELECT * FROM online_learners WHERE domain = ?${forUpdate}`, [domain]);
  }

  private ensure(domain: string): Sql<number> {
    return run("INSERT INTO online_learners (domain) VALUES (?) ON CONFLICT (domain) DO NOTHING", [domain]);
  }

  async acquireLearnerLease(domain: string, request: LeaseRequest): Promise<LeaseAttempt> {
    const now = request.now ?? this.db.now();
    const self = this;
    return this.db.write(function* () {
      yield* self.ensure(domain);
      const before = (yield* self.row(domain, true))!;
      const changed = yield* run(
        `UPDATE online_learners SET holder = ?, host = ?, pid = ?,
           lease_acquired_at = CASE WHEN holder = ? THEN lease_acquired_at ELSE ? END,
           lease_renewed_at = ?, lease_expires_ms = ?
         WHERE domain = ? AND (holder IS NULL OR holder = ? OR lease_expires_ms <= ?)`,
        [
          request.holder,
          request.host,
          request.pid,
          request.holder,
          now.toISOString(),
          now.toISOString(),
          now.getTime() + request.ttlMs,
          domain,
          request.holder,
          now.getTime(),
        ],
      );
      return {
        acquired: changed > 0,
        lease: toLearnerLease((yield* self.row(domain))!),
        previous: toLearnerLease(before),
      };
    });
  }

  async renewLearnerLease(domain: string, holder: string, ttlMs: number, now?: Date): Promise<boolean> {
    const at = now ?? this.db.now();
    const changed = await this.db.write(() =>
      run(
        "UPDATE online_learners SET lease_renewed_at = ?, lease_expires_ms = ? WHERE domain = ? AND holder = ?",
        [at.toISOString(), at.getTime() + ttlMs, domain, holder],
      ),
    );
    return changed > 0;
  }

  async releaseLearnerLease(domain: string, holder: string, now?: Date): Promise<void> {
    const at = now ?? this.db.now();
    await this.db.write(() =>
      run("UPDATE online_learners SET lease_expires_ms = ? WHERE domain = ? AND holder = ?", [
        at.getTime(),
        domain,
        holder,
      ]),
    );
  }

  async saveLearnerState(
    domain: string,
    holder: string,
    state: Record<string, unknown>,
    now?: Date,
  ): Promise<void> {
    const at = now ?? this.db.now();
    const self = this;
    await this.db.write(function* () {
      const changed = yield* run(
        "UPDATE online_learners SET state = ?, state_updated_at = ? WHERE domain = ? AND holder = ?",
        [JSON.stringify(state), at.toISOString(), domain, holder],
      );
      if (changed === 0) {
        const lost = leaseLost(domain, holder, (yield* self.row(domain))?.holder ?? null);
        throw new TfgrpoError("conflict", lost.message, { details: lost.details });
      }
    });
  }

  async getLearner(domain: string): Promise<LearnerRecord | null> {
    const row = await this.db.run(() => this.row(domain));
    return row ? toLearnerRecord(row, parseState) : null;
  }

  async listLearners(): Promise<LearnerRecord[]> {
    const rows = await this.db.run(() => all<LearnerRow>("SELECT * FROM online_learners ORDER BY domain"));
    return rows.map((row) => toLearnerRecord(row, parseState));
  }

  async setLearnerPaused(domain: string, paused: boolean, now?: Date): Promise<LearnerRecord> {
    const at = now ?? this.db.now();
    const self = this;
    return this.db.write(function* () {
      yield* self.ensure(domain);
      yield* run("UPDATE online_learners SET paused = ?, paused_at = ? WHERE domain = ?", [
        paused,
        paused ? at.toISOString() : null,
        domain,
      ]);
      return toLearnerRecord((yield* self.row(domain))!, parseState);
    });
  }
}
