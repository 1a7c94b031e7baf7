import { z } from "zod";

/** One finished span as a line of a run's local trace file (`traces/<run>.jsonl`). */
export const traceLineSchema = z.object({
  traceId: z.string(),
  spanId: z.string(),
  parentSpanId: z.string().nullable(),
  name: z.string(),
  /** Milliseconds since the epoch. */
  start: z.number(),
  durationMs: z.number(),
  status: z.enum(["unset", "ok", "error"]),
  statusMessage: z.string().optional(),
  service: z.string(),
  attributes: z.record(z.string(), z.unknown()),
});
export type TraceLine = z.infer<typeof traceLineSchema>;
