import { formatZodIssues, type Role, TfgrpoError, type Usage } from "@tfgrpo/protocol";
import { z } from "zod";
import type { StructuredOutputMode } from "./config/models-config-schema.js";
import { redactSecrets } from "./redact-secrets.js";
import { type JsonRepair, repairJson } from "./repair-json.js";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export type ResponseFormat =
  | {
      type: "json_schema";
      json_schema: { name: string; description?: string; schema: object; strict: boolean };
    }
  | { type: "json_object" };

export interface StructuredRequest<T> {
  messages: ChatMessage[];
  schema: z.ZodType<T>;
  /** Names the expected answer (`group_advice`); the json_schema name and every message use it. */
  name: string;
  description?: string;
  /** Model calls before giving up, each after the first showing the model what was wrong; default 3. */
  maxAttempts?: number;
  temperature?: number;
  seed?: number;
  maxTokens?: number;
  signal?: AbortSignal;
}

export interface StructuredResult<T> {
  value: T;
  /** Summed over every attempt. */
  usage: Usage;
  attempts: number;
  /** The text of the accepted answer, before repair. */
  raw: string;
  /** The mode the accepted answer came through (lower than configured if the provider refused a mode). */
  mode: StructuredOutputMode;
  /** What had to be repaired in the accepted answer; "truncation" means trailing elements may be missing. */
  repairs: JsonRepair[];
}

export interface StructuredAttempt {
  attempt: number;
  mode: StructuredOutputMode;
  error: string;
  raw?: string;
}

type CompleteForStructured = (request: {
  messages: ChatMessage[];
  temperature?: number;
  seed?: number;
  maxTokens?: number;
  signal?: AbortSignal;
  responseFormat?: ResponseFormat;
}) => Promise<{ text: string; usage: Usage; finishReason?: string }>;

export interface StructuredContext {
  role: Role;
  model: string;
  label: string;
  complete: CompleteForStructured;
  /** The mode to start with; `onDegrade` is told when the provider refuses it, so later calls skip it. */
  mode: StructuredOutputMode;
  onDegrade: (from: StructuredOutputMode, to: StructuredOutputMode, reason: string) => void;
  now: () => number;
}

const rawShownToModel = 4000;
const rawKeptInErrors = 600;

/**
 * The structured-output loop: ask in the best mode the provider supports, repair the answer, validate it with zod,
 * and on failure ask again showing the model its answer and the validation error. A provider that rejects a
 * response_format (HTTP 400) is asked again one mode lower: json_schema -> json_object -> text.
 */
export async function runStructured<T>(
  context: StructuredContext,
  request: StructuredRequest<T>,
): Promise<StructuredResult<T>> {
  const maxAttempts = request.maxAttempts ?? 3;
  const jsonSchema = toJsonSchema(request.schema);
  const usages: Usage[] = [];
  const failures: StructuredAttempt[] = [];
  let mode = context.mode;
  let feedback: { raw: string; error: string } | undefined;

  for (let attempt = 1; attempt <= maxAttempts; ) {
    let answer: { text: string; usage: Usage; finishReason?: string };
    try {
      answer = await context.complete({
        messages: structuredMessages(request, mode, jsonSchema, feedback),
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(request.seed !== undefined ? { seed: request.seed } : {}),
        ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
        ...responseFormatFor(mode, request, jsonSchema),
      });
    } catch (error) {
      const lower = lowerMode(mode);
      if (lower && isResponseFormatRejection(error)) {
        // Refused before any generation: costs nothing, so it does not use up an attempt.
        const reason = (error as Error).message;
        failures.push({ attempt, mode, error: `provider refused ${mode}: ${reason}` });
        context.onDegrade(mode, lower, reason);
        mode = lower;
        continue;
      }
      throw error;
    }
    usages.push(answer.usage);
    const raw = answer.text;
    const repaired = repairJson(raw, { accept: (value) => request.schema.safeParse(value).success });
    let error: string;
    if (repaired.ok) {
      const parsed = request.schema.safeParse(repaired.value);
      if (parsed.success) {
        return {
          value: parsed.data,
          usage: sumUsage(usages, context),
          attempts: attempt,
          raw,
          mode,
          repairs: repaired.repairs,
        };
      }
      error = formatZodIssues(parsed.error.issues);
    } else {
      error = repaired.error;
    }
    if (answer.finishReason === "length") error += " (the answer was cut off at the token limit)";
    failures.push({ attempt, mode, error, raw: truncate(raw, rawKeptInErrors) });
    feedback = { raw, error };
    attempt++;
  }

  const usage = sumUsage(usages, context);
  const summary = failures.map((failure) => `attempt ${failure.attempt} (${failure.mode}): ${failure.error}`);
  throw new TfgrpoError(
    "model_error",
    redactSecrets(
      `${context.label}: no valid ${request.name} after ${maxAttempts} attempts: ${summary.join("; ")}`,
    ),
    {
      details: {
        role: context.role,
        model: context.model,
        name: request.name,
        attempts: failures.map((failure) => ({
          ...failure,
          ...(failure.raw ? { raw: redactSecrets(failure.raw) } : {}),
        })),
        usage,
      },
    },
  );
}

/** The JSON Schema a model is shown: the schema's INPUT side (what the model writes, before defaults and transforms). */
export function toJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
  }) as Record<string, unknown>;
  return rest;
}

function responseFormatFor(
  mode: StructuredOutputMode,
  request: StructuredRequest<unknown>,
  jsonSchema: Record<string, unknown>,
): { responseFormat?: ResponseFormat } {
  if (mode === "json_object") return { responseFormat: { type: "json_object" } };
  if (mode === "text") return {};
  return {
    responseFormat: {
      type: "json_schema",
      json_schema: {
        name: request.name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64),
        ...(request.description ? { description: request.description } : {}),
        schema: jsonSchema,
        // Strict mode needs every property required; zod schemas with optional fields would be refused.
        strict: false,
      },
    },
  };
}

/**
 * json_schema mode needs no words; the other modes carry the schema in the system message. Retry feedback goes
 * into the LAST user message, after its original text: the prompt contract has the sim (and any reader) find the
 * kind of call by the markers in that message, so it must stay the last one.
 */
export function structuredMessages(
  request: StructuredRequest<unknown>,
  mode: StructuredOutputMode,
  jsonSchema: Record<string, unknown>,
  feedback: { raw: string; error: string } | undefined,
): ChatMessage[] {
  const messages = request.messages.map((message) => ({ ...message }));
  if (mode !== "json_schema") {
    const instruction =
      `Answer with one JSON object (${request.name}${request.description ? `: ${request.description}` : ""}) ` +
      `that matches this JSON Schema, and nothing else:\n${JSON.stringify(jsonSchema)}`;
    const first = messages[0];
    if (first?.role === "system") first.content = `${first.content}\n\n${instruction}`;
    else messages.unshift({ role: "system", content: instruction });
  }
  if (feedback) {
    const note =
      `<previous_answer>\n${truncate(feedback.raw, rawShownToModel)}\n</previous_answer>\n` +
      `<validation_error>${feedback.error}</validation_error>\n` +
      "Your previous answer to this request could not be used because of the error above. " +
      "Answer again with only the corrected JSON.";
    const lastUser = messages.findLastIndex((message) => message.role === "user");
    const target = lastUser >= 0 ? messages[lastUser] : undefined;
    if (target) target.content = `${target.content}\n\n${note}`;
    else messages.push({ role: "user", content: note });
  }
  return messages;
}

function lowerMode(mode: StructuredOutputMode): StructuredOutputMode | undefined {
  if (mode === "json_schema") return "json_object";
  if (mode === "json_object") return "text";
  return undefined;
}

/** A 400 that blames the response format, as providers without json_schema / json_object answer. */
function isResponseFormatRejection(error: unknown): boolean {
  if (!TfgrpoError.isInstance(error) || error.details?.status !== 400) return false;
  return /response_format|json_schema|json_object|structured output|json mode/i.test(error.message);
}

function sumUsage(usages: Usage[], context: StructuredContext): Usage {
  const total: Usage = {
    role: context.role,
    model: context.model,
    inputTokens: 0,
    cachedInputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    latencyMs: 0,
  };
  for (const usage of usages) {
    total.inputTokens += usage.inputTokens;
    total.cachedInputTokens += usage.cachedInputTokens;
    total.outputTokens += usage.outputTokens;
    total.costUsd += usage.costUsd;
    total.latencyMs += usage.latencyMs;
  }
  return total;
}

function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… [${text.length - limit} more characters]`;
}
