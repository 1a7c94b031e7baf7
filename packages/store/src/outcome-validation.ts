import { domainSchema, experienceIdSchema, TfgrpoError } from "@tfgrpo/protocol";
import { z } from "zod";
import type { OutcomeFilter, OutcomeReport, ServedSelection } from "./outcome-store.js";
import { parseRecord } from "./sql/stored-json.js";

/**
 * The checks every `OutcomeStore` backend makes before it writes (shared, so backends refuse the same input with the
 * same message).
 */

/** Largest trajectory a report may carry, as JSON text. */
export const maxTrajectoryChars = 2_000_000;

const selectionIdSchema = z.string().min(1).max(200);
/** A client name (what a client token names). */
export const clientSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
    "a client name is 1-64 letters, digits, dots, dashes or underscores",
  );

const selectionSchema = z
  .object({
    selectionId: selectionIdSchema,
    domain: domainSchema,
    version: z.number().int().positive().nullable(),
    entryIds: z.array(experienceIdSchema),
    explorationIds: z.array(experienceIdSchema),
    withheldIds: z.array(experienceIdSchema).optional(),
    stratum: z.string().min(1).max(200).optional(),
    task: z.string().max(200_000),
    servedAt: z.iso.datetime(),
    meta: z.record(z.string(), z.unknown()).optional(),
    client: clientSchema.optional(),
  })
  .superRefine((s, ctx) => {
    if (new Set(s.entryIds).size !== s.entryIds.length) {
      ctx.addIssue({ code: "custom", path: ["entryIds"], message: "an entry id is listed twice" });
    }
    const shown = new Set(s.entryIds);
    s.explorationIds.forEach((id, index) => {
      if (!shown.has(id)) {
        ctx.addIssue({
          code: "custom",
          path: ["explorationIds", index],
          message: `${id} is not among the entry ids shown`,
        });
      }
    });
    const withheld = s.withheldIds ?? [];
    if (new Set(withheld).size !== withheld.length) {
      ctx.addIssue({ code: "custom", path: ["withheldIds"], message: "an entry id is listed twice" });
    }
    withheld.forEach((id, index) => {
      if (shown.has(id)) {
        ctx.addIssue({
          code: "custom",
          path: ["withheldIds", index],
          message: `${id} is among the entry ids shown; a withheld entry is not shown`,
        });
      }
    });
    if (s.version === null && (s.entryIds.length > 0 || withheld.length > 0)) {
      ctx.addIssue({ code: "custom", path: ["version"], message: "entries shown without a version" });
    }
  });

const reportSchema = z.object({
  selectionId: selectionIdSchema,
  reward: z.number().min(0).max(1),
  success: z.boolean(),
  feedback: z.string().max(20_000).optional(),
  trajectory: z.unknown().optional(),
  summary: z.string().max(20_000).optional(),
  citedIds: z.array(experienceIdSchema).max(1000).optional(),
  baseline: z.number().min(0).max(1).optional(),
  client: clientSchema.optional(),
});

const filterSchema = z.object({
  domain: domainSchema,
  after: z.number().int().nonnegative().optional(),
  since: z.date().optional(),
  until: z.date().optional(),
  version: z.number().int().positive().nullable().optional(),
  consumed: z.boolean().optional(),
  limit: z.number().int().nonnegative().optional(),
  latest: z.number().int().nonnegative().optional(),
  includeExcluded: z.boolean().optional(),
});

export function parseSelection(selection: ServedSelection): ServedSelection {
  return parseRecord(selectionSchema, selection, "served selection") as ServedSelection;
}

export function parseReport(report: OutcomeReport): OutcomeReport {
  const parsed = parseRecord(reportSchema, report, "outcome report") as OutcomeReport;
  if (parsed.trajectory !== undefined) {
    const text = JSON.stringify(parsed.trajectory);
    if (text === undefined || text.length > maxTrajectoryChars) {
      throw new TfgrpoError(
        "invalid_input",
        `invalid outcome report: trajectory: ${
          text === undefined ? "not JSON" : `${text.length} characters as JSON, at most ${maxTrajectoryChars}`
        }`,
        { details: { selectionId: parsed.selectionId } },
      );
    }
  }
  return parsed;
}

export function parseOutcomeFilter(filter: OutcomeFilter): OutcomeFilter {
  return parseRecord(filterSchema, filter, "outcome filter") as OutcomeFilter;
}

export function parseMarkConsumed(
  domain: string,
  selectionIds: readonly string[],
  reflectionId: string,
): string[] {
  parseRecord(domainSchema, domain, "domain");
  parseRecord(z.string().min(1).max(200), reflectionId, "reflection id");
  return [...new Set(parseRecord(z.array(selectionIdSchema), selectionIds, "selection ids"))];
}
