import { z } from "zod";
import { defineSubject } from "./bus/subject.js";
import { gateDecisionSchema } from "./schemas/library-version.js";

/**
 * A decision another role made on a proposed version (the online canary's sequential test, an abandoned or voided
 * canary), stored by the curator, the only writer of libraries: the version becomes committed or rejected with the
 * decision on its record.
 */
export const curatorDecide = defineSubject(
  "tfgrpo.curator.decide",
  z.object({
    domain: z.string(),
    version: z.number().int().nonnegative(),
    state: z.enum(["committed", "rejected"]),
    decision: gateDecisionSchema,
  }),
  gateDecisionSchema,
);

/**
 * Undoes a head (the online probation's rollback): commits a version equal to `to` (every entry deleted when `to` is
 * the empty library), refused with `conflict` when the head is no longer `from`.
 */
export const curatorRestore = defineSubject(
  "tfgrpo.curator.restore",
  z.object({
    domain: z.string(),
    from: z.number().int().nonnegative(),
    to: z.number().int().nonnegative().nullable(),
    runId: z.string().optional(),
    message: z.string(),
  }),
  z.object({ version: z.number().int().nonnegative() }),
);
