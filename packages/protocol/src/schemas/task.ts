import { z } from "zod";

export const domainSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,63}$/, "domain must be lowercase letters, digits, '-' or '_' (e.g. math, web)")
  .describe("Domain of a task and of its experience library, e.g. math or web");

export const taskSchema = z.object({
  id: z.string().min(1).describe("Stable task id"),
  domain: domainSchema,
  question: z.string().min(1).describe("The problem statement given to the actor"),
  answer: z.string().optional().describe("Ground-truth answer; absent when there is none"),
  meta: z.record(z.string(), z.unknown()).optional(),
});
export type Task = z.infer<typeof taskSchema>;
