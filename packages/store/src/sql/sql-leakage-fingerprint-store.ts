import { type LeakageFingerprints, leakageFingerprintsSchema } from "@tfgrpo/protocol";
import { leakageFingerprintsJson } from "../leakage-fingerprint-json.js";
import type { LeakageFingerprintStore } from "../leakage-fingerprint-store.js";
import { get, run, type SqlPort } from "./sql-port.js";
import { readStoredJson } from "./stored-json.js";

/** Leakage fingerprints (`leakage_fingerprints`) of a SQL store. */
export class SqlLeakageFingerprintStore implements LeakageFingerprintStore {
  constructor(private readonly db: SqlPort) {}

  async putLeakageFingerprints(fingerprints: LeakageFingerprints): Promise<string> {
    const { digest, json, tasks } = leakageFingerprintsJson(fingerprints);
    const at = this.db.now().toISOString();
    // Runners sharing a store share its set: only the first sends it (the look-up spares the others the upload).
    await this.db.run(function* () {
      if (yield* get("SELECT 1 AS found FROM leakage_fingerprints WHERE digest = ?", [digest])) return;
      yield* run(
        `INSERT INTO leakage_fingerprints (digest, tasks, fingerprints, created_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (digest) DO NOTHING`,
        [digest, tasks, json, at],
      );
    });
    return digest;
  }

  async getLeakageFingerprints(digest: string): Promise<LeakageFingerprints | null> {
    const row = await this.db.run(() =>
      get<{ fingerprints: string }>("SELECT fingerprints FROM leakage_fingerprints WHERE digest = ?", [
        digest,
      ]),
    );
    return row
      ? readStoredJson(row.fingerprints, `leakage_fingerprints ${digest}`, leakageFingerprintsSchema)
      : null;
  }
}
