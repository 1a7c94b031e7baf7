import { z } from "zod";

/** A content digest (sha256, hex) naming one stored set of leakage fingerprints. */
export const leakageFingerprintsDigestSchema = z
  .string()
  .regex(/^[0-9a-f]{64}$/, "a sha256 digest: 64 lowercase hex digits");

/**
 * What the curator's leakage check compares a lesson with, for every training and validation task of a run: the
 * task's answer and the parts of its question a copied lesson would carry. Written once per run into the store,
 * content-addressed, so a consolidation request names it by digest instead of carrying the pool.
 */
export const leakageFingerprintsSchema = z.object({
  tasks: z.array(
    z.object({
      id: z.string(),
      answer: z
        .string()
        .optional()
        .describe(
          "The normalized answer, when distinctive enough to be told from an ordinary number or word",
        ),
      constants: z.array(z.string()).describe("The question's task-specific constants (numbers)"),
      words: z
        .string()
        .describe("The question's words, lowercased and joined by single spaces: its 8-word shingles"),
    }),
  ),
});
export type LeakageFingerprints = z.infer<typeof leakageFingerprintsSchema>;
