import { createHash } from "node:crypto";
import { type LeakageFingerprints, leakageFingerprintsSchema } from "@tfgrpo/protocol";
import { parseRecord } from "./sql/stored-json.js";

/** A set of leakage fingerprints as every backend stores it: the checked JSON text, and its sha256 (its name). */
export function leakageFingerprintsJson(fingerprints: LeakageFingerprints): {
  digest: string;
  json: string;
  tasks: number;
} {
  const parsed = parseRecord(leakageFingerprintsSchema, fingerprints, "leakage fingerprints");
  const json = JSON.stringify(parsed);
  return { digest: createHash("sha256").update(json).digest("hex"), json, tasks: parsed.tasks.length };
}
