import { type LeakageFingerprints, leakageFingerprintsSchema } from "@tfgrpo/protocol";
import { leakageFingerprintsJson } from "../leakage-fingerprint-json.js";
import type { LeakageFingerprintStore } from "../leakage-fingerprint-store.js";
import type { SqliteConnection } from "./sqlite-connection.js";
import { readStoredJson } from "./stored-json.js";

/** Leakage fingerprints (`leakage_fingerprints`) on the shared connection of a SQLite store. */
export class SqliteLeakageFingerprintStore implements LeakageFingerprintStore {
  private readonly connection: SqliteConnection;

  constructor(connection: SqliteConnection) {
    this.connection = connection;
  }

  async putLeakageFingerprints(fingerprints: LeakageFingerprints): Promise<string> {
    const { digest, json, tasks } = leakageFingerprintsJson(fingerprints);
    const stored = this.connection.stmt("SELECT 1 FROM leakage_fingerprints WHERE digest = ?").get(digest);
    if (!stored) {
      this.connection
        .stmt(
          `INSERT INTO leakage_fingerprints (digest, tasks, fingerprints, created_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (digest) DO NOTHING`,
        )
        .run(digest, tasks, json, this.connection.now().toISOString());
    }
    return digest;
  }

  async getLeakageFingerprints(digest: string): Promise<LeakageFingerprints | null> {
    const row = this.connection
      .stmt("SELECT fingerprints FROM leakage_fingerprints WHERE digest = ?")
      .get(digest) as { fingerprints: string } | undefined;
    return row
      ? readStoredJson(row.fingerprints, `leakage_fingerprints ${digest}`, leakageFingerprintsSchema)
      : null;
  }
}
