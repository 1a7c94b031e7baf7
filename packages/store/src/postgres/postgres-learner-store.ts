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
import { readStoredJson } from "../sqlite/stored-json.js";
import type { PostgresConnection, Sql } from "./postgres-connection.js";

const parseState = (text: string) => readStoredJson<Record<string, unknown>>(text, "online_learners.state");

/** The online learners' lease, state and pause flag (`online_learners`) of a PostgreSQL store. */
export class PostgresLearnerStore implements LearnerStore {
  private readonly connection: PostgresConnection;

  constructor(connection: PostgresConnection) {
    this.connection = connection;
  }

  private async row(sql: Sql, domain: string, lock = false): Promise<LearnerRow | undefined> {
    return (
      await sql.query<LearnerRow>(
        `SELECT * FROM online_learners WHERE domain = $1${lock ? " FOR UPDATE" : ""}`,
        [domain],
      )
    ).rows[0];
  }

  private async ensure(sql: Sql, domain: string): Promise<void> {
    await sql.query("INSERT INTO online_learners (domain) VALUES ($1) ON CONFLICT (domain) DO NOTHING", [
      domain,
    ]);
  }

  async acquireLearnerLease(domain: string, request: LeaseRequest): Promise<LeaseAttempt> {
    const now = request.now ?? this.connection.now();
    return this.connection.transaction(async (sql) => {
      await this.ensure(sql, domain);
      const before = (await this.row(sql, domain, true))!;
      const changed = (
        await sql.query(
          `UPDATE online_learners SET holder = $1, host = $2, pid = $3,
             lease_acquired_at = CASE WHEN holder = $1 THEN lease_acquired_at ELSE $4 END,
             lease_renewed_at = $4, lease_expires_ms = $5
           WHERE domain = $6 AND (holder IS NULL OR holder = $1 OR lease_expires_ms <= $7)`,
          [
            request.holder,
            request.host,
            request.pid,
            now.toISOString(),
            now.getTime() + request.ttlMs,
            domain,
            now.getTime(),
          ],
        )
      ).rowCount;
      return {
        acquired: (changed ?? 0) > 0,
        lease: toLearnerLease((await this.row(sql, domain))!),
        previous: toLearnerLease(before),
      };
    });
  }

  async renewLearnerLease(domain: string, holder: string, ttlMs: number, now?: Date): Promise<boolean> {
    const at = now ?? this.connection.now();
    const result = await this.connection.query(
      "UPDATE online_learners SET lease_renewed_at = $1, lease_expires_ms = $2 WHERE domain = $3 AND holder = $4",
      [at.toISOString(), at.getTime() + ttlMs, domain, holder],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async releaseLearnerLease(domain: string, holder: string, now?: Date): Promise<void> {
    const at = now ?? this.connection.now();
    await this.connection.query(
      "UPDATE online_learners SET lease_expires_ms = $1 WHERE domain = $2 AND holder = $3",
      [at.getTime(), domain, holder],
    );
  }

  async saveLearnerState(
    domain: string,
    holder: string,
    state: Record<string, unknown>,
    now?: Date,
  ): Promise<void> {
    const at = now ?? this.connection.now();
    const result = await this.connection.query(
      "UPDATE online_learners SET state = $1, state_updated_at = $2 WHERE domain = $3 AND holder = $4",
      [JSON.stringify(state), at.toISOString(), domain, holder],
    );
    if ((result.rowCount ?? 0) === 0) {
      const current = await this.getLearner(domain);
      const lost = leaseLost(domain, holder, current?.lease?.holder ?? null);
      throw new TfgrpoError("conflict", lost.message, { details: lost.details });
    }
  }

  async getLearner(domain: string): Promise<LearnerRecord | null> {
    const row = await this.row(this.connection, domain);
    return row ? toLearnerRecord(row, parseState) : null;
  }

  async listLearners(): Promise<LearnerRecord[]> {
    const rows = (await this.connection.query<LearnerRow>("SELECT * FROM online_learners ORDER BY domain"))
      .rows;
    return rows.map((row) => toLearnerRecord(row, parseState));
  }

  async setLearnerPaused(domain: string, paused: boolean, now?: Date): Promise<LearnerRecord> {
    const at = now ?? this.connection.now();
    return this.connection.transaction(async (sql) => {
      await this.ensure(sql, domain);
      await sql.query("UPDATE online_learners SET paused = $1, paused_at = $2 WHERE domain = $3", [
        paused,
        paused ? at.toISOString() : null,
        domain,
      ]);
      return toLearnerRecord((await this.row(sql, domain))!, parseState);
    });
  }
}
