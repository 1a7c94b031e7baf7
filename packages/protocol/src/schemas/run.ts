import { z } from "zod";

export const runStatusSchema = z.enum(["running", "finished", "failed", "stopped", "interrupted"]);

export const runSchema = z.object({
  id: z.string(),
  kind: z.enum(["learn", "eval", "solve", "online"]),
  domain: z.string(),
  status: runStatusSchema,
  config: z.record(z.string(), z.unknown()),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  summary: z.record(z.string(), z.unknown()).optional(),
});
export type Run = z.infer<typeof runSchema>;
