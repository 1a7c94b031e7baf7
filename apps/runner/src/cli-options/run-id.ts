import { randomBytes } from "node:crypto";

/** `learn-20260102T030405-a1b2c3`: sortable by start time, unique without a counter. */
export function newRunId(kind: string, now: Date = new Date()): string {
  return `${kind}-${now.toISOString().replace(/[-:]/g, "").replace(/\..*/, "")}-${randomBytes(3).toString("hex")}`;
}
