import { z } from "zod";
import { experienceIdSchema, experienceScopeSchema, experienceStatusSchema } from "./experience.js";

const reason = z.string().min(1).describe("One line: why this operation");

export const addOperationSchema = z.object({
  op: z.literal("add"),
  text: z.string().min(1).describe("The new experience"),
  status: experienceStatusSchema.optional().describe("Defaults to candidate"),
  scope: experienceScopeSchema.optional(),
  conflictGroup: z.string().optional(),
  reason,
});

export const modifyOperationSchema = z
  .object({
    op: z.literal("modify"),
    id: experienceIdSchema,
    text: z.string().min(1).optional(),
    status: experienceStatusSchema.optional(),
    scope: experienceScopeSchema.optional(),
    conflictGroup: z
      .string()
      .nullable()
      .optional()
      .describe("null removes the entry from its conflict group"),
    reason,
  })
  .refine(
    (o) =>
      o.text !== undefined ||
      o.status !== undefined ||
      o.scope !== undefined ||
      o.conflictGroup !== undefined,
    {
      message: "modify must change at least one of text, status, scope, conflictGroup",
    },
  );

/** Delete archives the entry: it leaves what actors see but keeps its id, text and history. */
export const deleteOperationSchema = z.object({ op: z.literal("delete"), id: experienceIdSchema, reason });

/** Merge archives its sources and adds one new entry (a new id) with the merged text. */
export const mergeOperationSchema = z.object({
  op: z.literal("merge"),
  ids: z.array(experienceIdSchema).min(2),
  text: z.string().min(1),
  status: experienceStatusSchema
    .optional()
    .describe("Status of the merged entry; defaults to the best of its sources"),
  scope: experienceScopeSchema.optional().describe("Scope of the merged entry; none by default"),
  reason,
});

export const keepOperationSchema = z.object({ op: z.literal("keep"), id: experienceIdSchema, reason });

export const operationSchema = z.discriminatedUnion("op", [
  addOperationSchema,
  modifyOperationSchema,
  deleteOperationSchema,
  mergeOperationSchema,
  keepOperationSchema,
]);
export type Operation = z.infer<typeof operationSchema>;
export type AddOperation = z.infer<typeof addOperationSchema>;
export type ModifyOperation = z.infer<typeof modifyOperationSchema>;
export type DeleteOperation = z.infer<typeof deleteOperationSchema>;
export type MergeOperation = z.infer<typeof mergeOperationSchema>;
export type KeepOperation = z.infer<typeof keepOperationSchema>;
