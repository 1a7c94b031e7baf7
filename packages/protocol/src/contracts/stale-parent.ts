import { z } from "zod";
import { TfgrpoError } from "../errors.js";

/**
 * A commit refused because the version's parent is no longer the head (another writer committed first): a
 * `conflict` whose details carry `kind: "stale-parent"` and the versions involved. Callers that re-apply on the new
 * head read it with `staleParentOf`, never from the message.
 */
export const staleParentDetailsSchema = z.object({
  kind: z.literal("stale-parent"),
  domain: z.string(),
  /** The version that could not be committed (null: a new version that was never written). */
  version: z.number().int().nullable(),
  parent: z.number().int().nullable(),
  head: z.number().int().nullable(),
});
export type StaleParentDetails = z.infer<typeof staleParentDetailsSchema>;

export function staleParentDetails(details: Omit<StaleParentDetails, "kind">): StaleParentDetails {
  return { kind: "stale-parent", ...details };
}

/** The typed details of a stale-parent conflict, or undefined for any other error. */
export function staleParentOf(error: unknown): StaleParentDetails | undefined {
  if (!TfgrpoError.hasCode(error, "conflict")) return undefined;
  const parsed = staleParentDetailsSchema.safeParse(error.details);
  return parsed.success ? parsed.data : undefined;
}
