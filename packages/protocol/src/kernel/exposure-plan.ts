import { z } from "zod";
import type { ExperienceStatus } from "../schemas/experience.js";
import { seededRandom, seedFrom } from "./seeded-random.js";

/*
 * Exposure varied inside a group (DESIGN section 11). Every attempt of a group sees the same selection of entries, so
 * without this an entry's credit is shared by everything shown with it. With it, the entries whose effect is still
 * uncertain (candidates, probation, and a rotating share of active ones) are each shown to a seeded, balanced part of
 * the group's attempts and withheld from the rest, independently of each other (a factorial design: each entry's
 * contrast is unbiased, the others only add noise). Everything else in the prompt stays the same.
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
        "Share of groups in which a settled active entry is varied (candidates, probation and unsettled active entries always are)",
      ),
    settleContrasts: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe(
        "Contrasts after which an active entry is varied only in the rotating share (before, wherever relevant); 0: always only in the share. Default 12",
      ),
    relevantShare: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe(
        "An uncertain entry is varied only on tasks where it ranks among this share of the shown entries by similarity (at least 3); elsewhere a candidate or probation entry is not shown. Default 0.25",
      ),
  })
  .describe(
    "Vary the uncertain entries inside the group: each is shown to a balanced part of the attempts, withheld from the rest",
  );
export type Exposure = z.infer<typeof exposureSchema>;

/** Default share of groups in which an active entry is varied. */
export const defaultActiveExposureShare = 1 / 3;

/**
 * Default share of a task's shown entries, by similarity, among which an entry counts as relevant to it. A lesson
 * matters on the tasks it is about: measured over every task its effect is diluted by all the tasks it cannot touch
 * (a lesson that fixes one family of seven moves the average by a seventh), so the contrast is taken where the entry
 * is relevant. Relevance is decided before any attempt runs (from the task and the entry's text), so it selects
 * groups without biasing the difference inside them.
 */
export const defaultRelevantShare = 0.25;

/** Entries always counted relevant, however small the share. */
export const minRelevantEntries = 3;

/**
 * Contrasts after which an active entry's effect counts as settled: until then it is varied wherever it is relevant,
 * like a candidate (an entry imported or promoted on little evidence is still uncertain); after, only in a rotating
 * share of groups, so a change in its effect is still seen.
 */
export const settledContrasts = 12;

/**
 * Whether the entry is varied in this group (a group of one attempt has no second arm: nothing is varied).
 * `contrasts` is the number of groups the entry's contrast already has.
 */
export function isVaried(exposure: Exposure, id: string, status: ExperienceStatus, contrasts = 0): boolean {
  if (exposure.attempts < 2) return false;
  if (status === "candidate" || status === "probation") return true;
  if (status !== "active") return false;
  if (contrasts < (exposure.settleContrasts ?? settledContrasts)) return true;
  return seedFrom(exposure.seed, id, "rotate") / 4294967296 < exposure.activeShare;
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
