import type { LeakageFingerprints } from "@tfgrpo/protocol";

/**
 * The leakage fingerprints of runs' task pools (the curator's leakage check: answers, question constants and words of
 * every training and validation task), content-addressed: written once per pool, named on the Bus by their digest,
 * so a consolidation request stays the same size whatever the pool.
 */
export interface LeakageFingerprintStore {
  /**
   * Stores a set (idempotent: the same set twice is stored once) and returns its digest, the sha256 of the JSON
   * text stored. A malformed set is `invalid_input`.
   */
  putLeakageFingerprints(fingerprints: LeakageFingerprints): Promise<string>;
  /** The set a digest names, or null when none is stored under it. */
  getLeakageFingerprints(digest: string): Promise<LeakageFingerprints | null>;
}
