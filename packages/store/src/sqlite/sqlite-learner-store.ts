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
import type { SqliteConnection } from "./sqlite-connection.js";
import { readStoredJson } from "./stored-json.js";

const parseState = (text: string) => readStoredJson<Record<string, unknown>>(text, "online_learners.state");

/** The online learners' lease, state and pause flag (`online_learners`) on the shared connection of a SQLite store. */
export class SqliteLearnerStore implements LearnerStore {
  private readonly connection: SqliteConnection;

  constructor(connection: SqliteConnection) {
    this.connection = connection;
  }

  private row(domain: string): LearnerRow | undefined {
    return this.connection.stmt("SELECT * FROM online_learners WHERE domain = ?").get(domain) as
      | LearnerRow
      | undefined;
  }

  private ensure(domain: string): void {
    this.connection
      .stmt("INSERT INTO online_learners (domain) VALUES (?) ON CONFLICT (domain) DO NOTHING")
      .run(domain);
  }

  async acquireLearnerLease(domain: string, request: LeaseRequest): Promise<LeaseAttempt> {
    const now = request.now ?? this.connection.now();
    return this.connection.write(() => {
      this.ensure(domain);
      const before = this.row(domain)!;
      const changed = this.connection
        .stmt(
          `UPDATE online_learners SET holder = ?, host = ?, pid = ?,
             lease_acquired_at = CASE WHEN holder = ? THEN lease_acquired_at ELSE ? END,
             lease_renewed_at = ?, lease_expires_ms = ?
           WHERE domain = ? AND (holder IS NULL OR holder = ? OR lease_expires_ms <= ?)`,
        )
        .run(
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
        ).changes;
      return {
        acquired: changed > 0,
        lease: toLearnerLease(this.row(domain)!),
        previous: toLearnerLease(before),
      };
    });
  }

  async renewLearnerLease(domain: string, holder: string, ttlMs: number, now?: Date): Promise<boolean> {
    const at = now ?? this.connection.now();
    return this.connection.write(
      () =>
        this.connection
          .stmt(
            "UPDATE online_learners SET lease_renewed_at = ?, lease_expires_ms = ? WHERE domain = ? AND holder = ?",
          )
          .run(at.toISOString(), at.getTime() + ttlMs, domain, holder).changes > 0,
    );
  }

  async releaseLearnerLease(domain: string, holder: string, now?: Date): Promise<void> {
    const at = now ?? this.connection.now();
    this.connection.write(() =>
      this.connection
        .stmt("UPDATE online_learners SET lease_expires_ms = ? WHERE domain = ? AND holder = ?")
        .run(at.getTime(), domain, holder),
    );
  }

  async saveLearnerState(
    domain: string,
    holder: string,
    state: Record<string, unknown>,
    now?: Date,
  ): Promise<void> {
    const at = now ?? this.connection.now();
    this.connection.write(() => {
      const changed = this.connection
        .stmt("UPDATE online_learners SET state = ?, state_updated_at = ? WHERE domain = ? AND holder = ?")
        .run(JSON.stringify(state), at.toISOString(), domain, holder).changes;
      if (changed === 0) {
        const lost = leaseLost(domain, holder, this.row(domain)?.holder ?? null);
        throw new TfgrpoError("conflict", lost.message, { details: lost.details });
      }
    });
  }

  async getLearner(domain: string): Promise<LearnerRecord | null> {
    const row = this.row(domain);
    return row ? toLearnerRecord(row, parseState) : null;
  }

  async listLearners(): Promise<LearnerRecord[]> {
    const rows = this.connection.stmt("SELECT * FROM online_learners ORDER BY domain").all() as LearnerRow[];
    return rows.map((row) => toLearnerRecord(row, parseState));
  }

  async setLearnerPaused(domain: string, paused: boolean, now?: Date): Promise<LearnerRecord> {
    const at = now ?? this.connection.now();
    return this.connection.write(() => {
      this.ensure(domain);
      this.connection
        .stmt("UPDATE online_learners SET paused = ?, paused_at = ? WHERE domain = ?")
        .run(paused ? 1 : 0, paused ? at.toISOString() : null, domain);
      return toLearnerRecord(this.row(domain)!, parseState);
    });
  }
}
