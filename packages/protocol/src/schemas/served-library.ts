import { z } from "zod";
import { experienceIdSchema, experienceStatusSchema } from "./experience.js";
import { domainSchema } from "./task.js";

/*
 * The library as a service (tfgrpo.library.experiences / .outcome, the MCP tools get_experiences / report_outcome,
 * the in-process service): one wire contract for the three ways it is served.
 */

export const getExperiencesRequestSchema = z.object({
  domain: domainSchema,
  task: z
    .string()
    .min(1, "task must not be empty")
    .max(100_000)
    .describe("The task text the agent is about to work on"),
  version: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("Pin a library version (e.g. 3 for math@v3); default: the domain's head"),
  allowProposed: z
    .boolean()
    .optional()
    .describe(
      "Pinning a proposed version (one still being decided, e.g. an online canary) needs this set to true",
    ),
  k: z
    .number()
    .int()
    .min(1)
    .max(200)
    .optional()
    .describe("Show at most this many entries (default: the actor's top-k)"),
  family: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe(
      "The task's family (e.g. weighted-mean): online credit compares outcomes within it; default: similar task texts",
    ),
});
export type GetExperiencesRequest = z.infer<typeof getExperiencesRequestSchema>;

export const servedExperienceSchema = z.object({
  id: experienceIdSchema,
  text: z.string(),
  status: experienceStatusSchema,
  /**
   * True for the exploration arm: an entry whose effect is uncertain (candidate, probation, a rotating share of
   * active), shown to this request by a fair coin so its effect can be measured against requests it was withheld from.
   */
  exploration: z.boolean(),
});
export type ServedExperience = z.infer<typeof servedExperienceSchema>;

export const getExperiencesReplySchema = z.object({
  /** Pass it back to `reportOutcome`; one outcome per selection. */
  selectionId: z.string(),
  domain: z.string(),
  /** The version the entries came from; null when the domain has no committed version yet (nothing to show). */
  version: z.number().int().positive().nullable(),
  /** Sorted by id: the order the prompt block shows them in. */
  entries: z.array(servedExperienceSchema),
  explorationIds: z.array(experienceIdSchema),
  /**
   * The experience part of a system prompt (`# Learned Experiences` ...), empty when nothing is shown. The same
   * selection always renders byte-identically, so appending it to a fixed system prompt keeps provider prefix
   * caches hitting.
   */
  promptBlock: z.string(),
});
export type GetExperiencesReply = z.infer<typeof getExperiencesReplySchema>;

export const reportOutcomeRequestSchema = z
  .object({
    selectionId: z.string().min(1).max(200).describe("The selectionId get_experiences returned"),
    reward: z.number().min(0).max(1).optional().describe("Reward in [0, 1]; give this or success"),
    success: z.boolean().optional().describe("Whether the task succeeded; give this or reward"),
    feedback: z.string().max(20_000).optional().describe("Free text: what went right or wrong"),
    trajectory: z.unknown().optional().describe("The agent's trajectory (any JSON, e.g. its messages)"),
    summary: z.string().max(20_000).optional().describe("A short summary, instead of the trajectory"),
    citedIds: z
      .array(experienceIdSchema)
      .max(1000)
      .optional()
      .describe(
        "Entry ids the agent used; default: the [G3]-style citations found in the trajectory or summary",
      ),
  })
  .refine((r) => r.reward !== undefined || r.success !== undefined, {
    message: "give reward (0..1) or success (true/false)",
    path: ["reward"],
  });
export type ReportOutcomeRequest = z.infer<typeof reportOutcomeRequestSchema>;

export const reportOutcomeReplySchema = z.object({
  selectionId: z.string(),
  domain: z.string(),
  version: z.number().int().positive().nullable(),
  reward: z.number(),
  success: z.boolean(),
  /** The entries whose stats the outcome was added to (every entry the selection showed). */
  creditedIds: z.array(experienceIdSchema),
  citedIds: z.array(experienceIdSchema),
  reportedAt: z.string(),
});
export type ReportOutcomeReply = z.infer<typeof reportOutcomeReplySchema>;

/**
 * How a client names itself on the Bus (over HTTP it sends `Authorization: Bearer <token>` instead): a token the
 * library role maps to a client name (`--client-tokens`). Never stored; the name it maps to is.
 */
export const clientTokenFieldSchema = z.object({
  clientToken: z
    .string()
    .min(1)
    .max(512)
    .optional()
    .describe("The client's token, when the library role is configured with client tokens"),
});
export type ClientTokenField = z.infer<typeof clientTokenFieldSchema>;

export const getLibraryRequestSchema = z.object({
  domain: domainSchema,
  version: z.number().int().positive().optional().describe("Default: the head"),
});
export type GetLibraryRequest = z.infer<typeof getLibraryRequestSchema>;
