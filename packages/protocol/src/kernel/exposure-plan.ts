import { z } from "zod";
import type { ExperienceContrast, ExperienceStatus } from "../schemas/experience.js";
import {
  type DecisionThresholds,
  decisionPriority,
  decisionThresholdsSchema,
  defaultDecisionThresholds,
  exposureShare,
} from "./decision-priority.js";
import { seededRandom, seedFrom } from "./seeded-random.js";

/*
 * Exposure varied inside a group (DESIGN section 11), sized to the value of the decision (issue 32). Every attempt of
 * a group sees the same selection of entries, so without this an entry's credit is shared by everything shown with
 * it. With it, each entry whose decision is open (`decisionPriority`: few contrasts, or a confidence sequence that
 * straddles a lifecycle threshold) is shown to a seeded, balanced part of the group's attempts and withheld from the
 * rest in every group it is selected in (credit then counts the groups where it applies, by the similarities the
 * attempts record); a settled entry only in a seeded share of groups, the stated exposure budget (`activeShare`), and
 * only where it is relevant (`relevantRatio`, `relevantShare`). Entries are varied independently of each other (a
 * factorial design: each entry's contrast is unbiased, the others only add noise). Everything else in the prompt stays
 * the same.
 */

export const exposureSchema = z
  .object({
    attempts: z
      .number()
      .int()
      .positive()
      .describe("Attempts in the group (G): the arms are balanced over them"),
    seed: z.number().int().describe("The group's seed: the same for every attempt of the group"),
    activeShare: z
      .number()
      .min(0)
      .max(1)
      .describe(
        "Exposure budget: share of groups in which an entry whose decision is settled is varied (open ones always are)",
      ),
    relevantShare: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe(
        "A settled entry is varied only on tasks where it is relevant and ranks among this share of the shown entries by similarity (at least 3). Default 0.25",
      ),
    relevantRatio: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe(
        "A settled entry drawn into the exposure budget is varied only where its similarity is at least this share of the most similar shown entry's (and it ranks within relevantShare). Default 0.4",
      ),
    decision: decisionThresholdsSchema
      .partial()
      .optional()
      .describe(
        "The lifecycle's thresholds, which decide whether an entry's decision is open (default: the curator's defaults)",
      ),
  })
  .describe(
    "Vary the entries whose decision is open inside the group: each is shown to a balanced part of the attempts, withheld from the rest",
  );
export type Exposure = z.infer<typeof exposureSchema>;

/** Default offline exposure budget: share of groups in which a settled entry is still varied. */
export const defaultExposureBudget = 0.15;

/**
 * Default online exposure budget: share of live requests in which a settled or not yet measured active entry is
 * varied (live traffic gives far fewer groups than a learning run, so a larger share of it).
 */
export const defaultActiveExposureShare = 1 / 3;

/**
 * Default share of a task's shown entries, by similarity, among which a settled entry counts as relevant to it. A
 * settled entry is varied only to see a change in its effect, so its few varied groups go where it can act (a lesson
 * that fixes one family of seven moves an all-task average by a seventh). Relevance is decided before any attempt
 * runs (from the task and the entry's text), so it selects groups without biasing the difference inside them.
 */
export const defaultRelevantShare = 0.25;

/**
 * Default similarity, as a share of the task's most similar shown entry's, from which a settled entry drawn into the
 * exposure budget counts as relevant to the task (with `relevantShare`). Open entries are varied wherever selected:
 * one task's selection cannot say whether any entry applies to it (on a task none is about, a relative cut-off still
 * admits most), so where an open entry's evidence counts is decided across the batch by credit.
 */
export const defaultRelevantRatio = 0.4;

/** Entries always counted relevant, however small the share. */
export const minRelevantEntries = 3;

/** The thresholds an exposure decides openness by. */
export function exposureThresholds(exposure: Exposure): DecisionThresholds {
  return { ...defaultDecisionThresholds, ...exposure.decision };
}

/**
 * How the entry is varied in this group: "open" (its decision is open: varied wherever shown), "budget" (settled, but
 * drawn into this group's exposure budget: varied where relevant), or null (not varied). A group of one attempt has no
 * second arm: nothing is varied. Candidates and probation entries are never settled for exposure until they move.
 */
export function variationOf(
  exposure: Exposure,
  id: string,
  status: ExperienceStatus,
  contrast?: ExperienceContrast,
): "open" | "budget" | null {
  if (exposure.attempts < 2 || status === "archived") return null;
  const priority = decisionPriority(contrast, status, exposureThresholds(exposure));
  if (status !== "active" || priority >= 0.5) return "open";
  return inExposureBudget(exposure, id, priority) ? "budget" : null;
}

/** Whether the group's (or request's) seeded draw puts an entry of this priority among those varied. */
export function inExposureBudget(exposure: Exposure, id: string, priority: number): boolean {
  return seedFrom(exposure.seed, id, "rotate") / 4294967296 < exposureShare(priority, exposure.activeShare);
}

/** Whether the entry is varied in this group at all (`variationOf` is not null). */
export function isVaried(
  exposure: Exposure,
  id: string,
  status: ExperienceStatus,
  contrast?: ExperienceContrast,
): boolean {
  return variationOf(exposure, id, status, contrast) !== null;
}

/**
 * Whether a varied entry is shown to this attempt. The attempts showing it are a seeded random half of the group
 * (the larger half for every other entry by its seed, so neither arm is systematically the bigger one).
 */
export function isShownToAttempt(exposure: Exposure, id: string, attempt: number): boolean {
  const { attempts } = exposure;
  const random = seededRandom(seedFrom(exposure.seed, id, "arms"));
  const order = Array.from({ length: attempts }, (_, index) => index);
  for (let index = attempts - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [order[index], order[other]] = [order[other]!, order[index]!];
  }
  const shownCount = random() < 0.5 ? Math.floor(attempts / 2) : Math.ceil(attempts / 2);
  return order.indexOf(attempt % attempts) < shownCount;
}
