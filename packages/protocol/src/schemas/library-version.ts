import { z } from "zod";
import { operationSchema } from "./operation.js";
import { domainSchema } from "./task.js";

/**
 * The gate rules a run can ask for: sequential (validation in rounds, decided once anytime-valid tests settle it),
 * paired-t (one look at a fixed sample), paper (the paper's "keep unless worse", ties commit, no test).
 */
export const gateRuleSchema = z.enum(["sequential", "paired-t", "paper"]);
export type GateRule = z.infer<typeof gateRuleSchema>;

export const gateDecisionSchema = z.object({
  decision: z.enum(["commit", "reject", "inconclusive"]),
  candidateScore: z.number().nullable(),
  headScore: z.number().nullable(),
  margin: z.number(),
  mode: z.enum(["better-by-margin", "not-worse-within-tolerance", "always"]),
  tasks: z.number().int().nonnegative().describe("Held-out tasks the scores were measured on"),
  stage: z.enum(["precheck", "full", "none"]).describe("Which check decided"),
  reason: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type GateDecision = z.infer<typeof gateDecisionSchema>;

export const libraryVersionStateSchema = z.enum(["proposed", "committed", "rejected"]);
export type LibraryVersionState = z.infer<typeof libraryVersionStateSchema>;

export const libraryVersionSchema = z.object({
  domain: domainSchema,
  version: z.number().int().nonnegative(),
  parent: z.number().int().nonnegative().nullable(),
  ops: z.array(operationSchema),
  createdAt: z.string(),
  state: libraryVersionStateSchema,
  gate: gateDecisionSchema.optional(),
  runId: z.string().nullable().optional(),
  message: z.string().optional(),
});
export type LibraryVersion = z.infer<typeof libraryVersionSchema>;

/** `math@head`, `math@v3`, `math@3` or `none`. */
export const libraryRefSchema = z
  .string()
  .regex(/^(none|[a-z][a-z0-9_-]{0,63}@(head|v?\d+))$/, "library refs look like math@head, math@v3 or none");
export type LibraryRef = z.infer<typeof libraryRefSchema>;

export function parseLibraryRef(ref: string): { domain: string; version: number | "head" } | null {
  const parsed = libraryRefSchema.parse(ref);
  if (parsed === "none") return null;
  const [domain, version] = parsed.split("@") as [string, string];
  return { domain, version: version === "head" ? "head" : Number(version.replace(/^v/, "")) };
}
