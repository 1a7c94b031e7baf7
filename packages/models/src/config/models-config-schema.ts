import type { Role } from "@tfgrpo/protocol";
import { z } from "zod";

/** What a provider can do for structured output, best first; `structured()` degrades further on a 400 if needed. */
export const structuredOutputModeSchema = z.enum(["json_schema", "json_object", "text"]);
export type StructuredOutputMode = z.infer<typeof structuredOutputModeSchema>;

// A pasted key instead of a variable name is the classic mistake; the message must not echo the value.
const environmentVariableNameSchema = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]*$/,
    "must be the NAME of an environment variable (like OPENAI_API_KEY), not a key",
  );

export const pricesSchema = z.strictObject({
  input: z.number().nonnegative().describe("USD per million input tokens"),
  cachedInput: z
    .number()
    .nonnegative()
    .optional()
    .describe("USD per million cached input tokens (default: input)"),
  output: z.number().nonnegative().describe("USD per million output tokens"),
});

/**
 * What a provider refuses, per model or provider: roles it rejects (a `developer` message is sent as `system`, a
 * `system` one as `user`) and request body fields it rejects (dropped from every request, e.g. `seed`, `temperature`,
 * `parallel_tool_calls`, `stream_options`).
 */
export const refusalsSchema = z.strictObject({
  roles: z
    .array(z.enum(["developer", "system"]))
    .optional()
    .describe("message roles the model rejects: developer is sent as system, system as user"),
  params: z
    .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a request body field name"))
    .optional()
    .describe("request body fields the model rejects; dropped from every request"),
});

export const providerSchema = z.strictObject({
  baseUrl: z
    .string()
    .min(1)
    .describe(
      "OpenAI-compatible base URL, e.g. https://api.openai.com/v1; environment variables are interpolated",
    ),
  apiKeyEnv: environmentVariableNameSchema
    .optional()
    .describe("env var holding the key; omit for keyless endpoints"),
  structuredOutput: structuredOutputModeSchema.optional(),
  supportsSeed: z.boolean().optional(),
  refuses: refusalsSchema.optional(),
});

export const modelEntrySchema = z.strictObject({
  provider: z.string().min(1).optional().describe("name of an entry in providers:"),
  baseUrl: z.string().min(1).optional(),
  apiKeyEnv: environmentVariableNameSchema.optional(),
  model: z.string().min(1),
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: z.number().int().positive().optional(),
  timeoutMs: z.number().int().positive().optional().describe("per HTTP attempt"),
  maxRetries: z.number().int().min(0).max(20).optional().describe("retries after the first attempt"),
  structuredOutput: structuredOutputModeSchema.optional(),
  supportsSeed: z.boolean().optional(),
  refuses: refusalsSchema.optional(),
  prices: pricesSchema.optional(),
  params: z.record(z.string(), z.unknown()).optional().describe("extra request body fields, e.g. top_p"),
  batchSize: z.number().int().positive().max(2048).optional().describe("embedder: texts per request"),
  dimensions: z.number().int().positive().optional().describe("embedder: requested vector size"),
});
export type ModelEntryInput = z.infer<typeof modelEntrySchema>;

/** The file's top level. Role values are checked in a second pass: a name of a `models:` entry or an inline entry. */
export const modelsConfigFileSchema = z.strictObject({
  providers: z.record(z.string(), providerSchema).optional(),
  models: z.record(z.string(), modelEntrySchema).optional(),
  roles: z.strictObject({
    actor: z.unknown().optional(),
    critic: z.unknown().optional(),
    curator: z.unknown().optional(),
    judge: z.unknown().optional(),
    embedder: z.unknown().optional(),
    // The simulated user of conversational domains (docs/actor.md "A user to talk to").
    user: z.unknown().optional(),
  }),
});

export interface Refusals {
  roles: Array<"developer" | "system">;
  params: string[];
}

export interface Prices {
  input: number;
  cachedInput: number;
  output: number;
}

/** One role's model, fully resolved (provider merged, env interpolated, defaults applied). Holds no secret. */
export interface ModelEntry {
  /** Where the entry was defined: `models.deepseek` or `roles.critic` for an inline entry. */
  ref: string;
  provider?: string;
  baseUrl: string;
  /** Name of the env var holding the key; absent for keyless endpoints (a placeholder key is sent). */
  apiKeyEnv?: string;
  model: string;
  temperature?: number;
  maxTokens?: number;
  timeoutMs: number;
  maxRetries: number;
  structuredOutput: StructuredOutputMode;
  supportsSeed: boolean;
  /** Roles and request fields this model refuses (merged from its provider); empty lists when none. */
  refuses: Refusals;
  prices: Prices;
  params: Record<string, unknown>;
  batchSize: number;
  dimensions?: number;
}

export interface ModelsConfig {
  /** The file it came from, for messages. */
  source?: string;
  roles: Partial<Record<Role, ModelEntry>>;
}

export const modelEntryDefaults = {
  timeoutMs: 60_000,
  maxRetries: 4,
  structuredOutput: "json_schema",
  supportsSeed: true,
  batchSize: 64,
} as const;
