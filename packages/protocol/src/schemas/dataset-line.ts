import { z } from "zod";
import { domainSchema } from "./task.js";

/**
 * One line of a JSONL dataset. `question` is required; `answer` may be a string or a number (kept as text) and is
 * absent or null for tasks without ground truth; any other field is kept in `meta`.
 */
export const datasetLineSchema = z
  .object({
    id: z.union([z.string().min(1), z.number().int()]).optional(),
    domain: domainSchema.optional(),
    question: z.string().trim().min(1, "must be a non-empty string"),
    answer: z.union([z.string(), z.number()]).nullable().optional(),
    meta: z.record(z.string(), z.unknown()).optional(),
  })
  .catchall(z.unknown());
export type DatasetLine = z.infer<typeof datasetLineSchema>;
