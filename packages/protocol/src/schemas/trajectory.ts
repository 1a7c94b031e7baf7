import { z } from "zod";
import { experienceIdSchema } from "./experience.js";
import { usageTotalsSchema } from "./usage.js";

export const toolCallRequestSchema = z.object({ id: z.string(), name: z.string(), arguments: z.string() });

export const messageSchema = z.object({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.string(),
  /** An assistant message's reasoning as the provider returned it beside the content; never the answer. */
  reasoning: z.string().optional(),
  toolCalls: z.array(toolCallRequestSchema).optional(),
  toolCallId: z.string().optional(),
  name: z.string().optional(),
});
export type Message = z.infer<typeof messageSchema>;

export const toolCallRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
  output: z.string().describe("Tool output, truncated for storage"),
  truncated: z.boolean(),
  error: z.string().optional(),
  /** The failure's tfgrpo error code when the tool threw one (`sandbox_unavailable`: the tool never ran). */
  errorCode: z.string().optional(),
  durationMs: z.number().nonnegative(),
});
export type ToolCallRecord = z.infer<typeof toolCallRecordSchema>;

export const stopReasonSchema = z.enum([
  "answered",
  "max_steps",
  "max_tool_calls",
  "timeout",
  "max_tokens",
  "no_answer",
  "model_error",
  "budget",
  "error",
  /** The attempt's environment (an MCP server) crashed, hung or refused its reset: infrastructure, never a lesson. */
  "environment_error",
]);
export type StopReason = z.infer<typeof stopReasonSchema>;

/** One change between two JSON states (`diffStates`): a JSON Pointer path and the values before and after. */
export const stateChangeSchema = z.object({
  path: z.string().describe("JSON Pointer (RFC 6901) of the changed value; '' is the whole state"),
  op: z.enum(["add", "remove", "replace"]),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
});
export type StateChange = z.infer<typeof stateChangeSchema>;

/** What an attempt did to its environment (docs/tools.md): the diff against the state right after reset, and the end state. */
export const environmentRecordSchema = z.object({
  diff: z
    .array(stateChangeSchema)
    .describe("Changes from the state after environment_reset to the final state"),
  finalState: z
    .unknown()
    .optional()
    .describe("The final state as environment_state returned it; absent when larger than the stored cap"),
  finalStateOmitted: z
    .boolean()
    .optional()
    .describe("The final state was larger than the cap and is not stored"),
  diffTruncated: z.boolean().optional().describe("More changes than the cap: only the first ones are stored"),
});
export type EnvironmentRecord = z.infer<typeof environmentRecordSchema>;

export const rewardGradeSchema = z.enum(["pass", "partial", "fail"]);

export const trajectorySchema = z.object({
  id: z.string(),
  runId: z.string(),
  taskId: z.string(),
  groupId: z.string().describe("Rollouts of one task in one step share a group"),
  attempt: z.number().int().nonnegative(),
  epoch: z.number().int().nonnegative().optional(),
  step: z.number().int().nonnegative().optional(),
  domain: z.string().optional(),
  libraryVersion: z.number().int().nonnegative().nullable().optional(),
  model: z.string().optional(),
  messages: z.array(messageSchema),
  toolCalls: z.array(toolCallRecordSchema),
  environment: environmentRecordSchema
    .optional()
    .describe("The attempt's environment: state diff and final state (domains with stateful MCP servers)"),
  finalAnswer: z.string().nullable(),
  reward: z.number().min(0).max(1).optional(),
  rewardInfo: z
    .object({
      grade: rewardGradeSchema,
      extracted: z.string().nullable().optional(),
      method: z.string(),
      reason: z.string().optional(),
      pseudoLabel: z
        .boolean()
        .optional()
        .describe("Rewarded against a majority-vote label, not ground truth"),
    })
    .optional(),
  experiencesShown: z.array(experienceIdSchema),
  experiencesWithheld: z
    .array(experienceIdSchema)
    .optional()
    .describe("Entries varied in this rollout's group that this rollout was not shown (the withheld arm)"),
  experienceSimilarity: z
    .record(experienceIdSchema, z.number())
    .optional()
    .describe(
      "Each entry the group varied (shown or withheld) and its similarity to the task, the same in every attempt: credit counts a contrast where the entry applies",
    ),
  experiencesCited: z.array(experienceIdSchema),
  usage: usageTotalsSchema,
  latencyMs: z.number().nonnegative(),
  stopReason: stopReasonSchema,
  error: z.string().optional(),
});
export type Trajectory = z.infer<typeof trajectorySchema>;
