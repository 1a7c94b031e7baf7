import { createHash } from "node:crypto";

/**
 * A sampling seed from (run, task, attempt): the same attempt gets the same seed on a rerun or a redelivery (so a
 * resumed run reproduces it where the provider honours seeds), and the G attempts of a group differ.
 * A non-negative 31-bit integer, which every provider that takes a seed accepts.
 */
export function deriveSeed(runId: string, taskId: string, attempt: number): number {
  const digest = createHash("sha256").update(`${runId}\u0000${taskId}\u0000${attempt}`).digest();
  return digest.readUInt32BE(0) & 0x7fffffff;
}
