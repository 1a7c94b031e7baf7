import { type LeakageFingerprints, leakageFingerprintsSchema } from "@tfgrpo/protocol";
import { leakageFingerprintsJson } from "../leakage-fingerprint-json.js";
import type { LeakageFingerprintStore } from "../leakage-fingerprint-store.js";
import { readStoredJson } from "../sqlite/stored-json.js";
import type { PostgresConnection } from "./postgres-connection.js";

/** Leakage fingerprints (`leakage_fingerprints`) of a PostgreSQL store. */
export class PostgresLeakageFingerprintStore implements LeakageFingerprintStore {
  private readonly connection: PostgresConnection;

  constructor(connection: PostgresConnection) {
    this.connection = connection;
  }

  async putLeakageFingerprints(fingerprints: LeakageFingerprints): Promise<string> {
    const { digest, json, tasks } = leakageFingerprintsJson(fingerprints);
    // Runners sharing a pool share its set: only the first sends it.
    const stored = await this.connection.query("SELECT 1 FROM leakage_fingerprints WHERE digest = $1", [
      digest,
    ]);
    if (stored.rowCount === 0) {
      await this.connection.query(
        `INSERT INTO leakage_fingerprints (digest, tasks, fingerprints, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (digest) DO NOTHING`,
        [digest, tasks, json, this.connection.now().toISOString()],
      );
    }
    return digest;
  }

  async getLeakageFingerprints(digest: string): Promise<LeakageFingerprints | null> {
    const row = (
      await this.connection.query<{ fingerprints: string }>(
        "SELECT fingerprints FROM leakage_fingerprints WHERE digest = $1",
        [digest],
      )
    ).rows[0];
    return row
      ? readStoredJson(row.fingerprints, `leakage_fingerprints ${digest}`, leakageFingerprintsSchema)
      : null;
  }
}
