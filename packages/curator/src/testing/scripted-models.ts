import { formatZodIssues, safeParseJson, TfgrpoError, type Usage } from "@tfgrpo/protocol";
import { z } from "zod";
import type { CuratorChatMessage, CuratorModels } from "../curator-dependencies.js";
import { createHashingEmbedder, type EmbedFunction } from "../hashing-embedder.js";

export interface ScriptedCall {
  name: string;
  /** The last user message (where the prompt-contract markers are). */
  prompt: string;
}

export interface ScriptedModelsOptions {
  /** Answer of a consolidation call (JSON value); throw to simulate a failure. Default: keep nothing, change nothing. */
  consolidation?: (prompt: string, call: number) => unknown;
  /** Answer of a conflict check. Default: no conflict. */
  conflict?: (a: string, b: string) => { conflict: boolean; reason: string };
  embed?: EmbedFunction;
}

export interface ScriptedModels extends CuratorModels {
  calls: ScriptedCall[];
}

const usage = (role: Usage["role"]): Usage => ({
  role,
  model: "scripted",
  inputTokens: 10,
  cachedInputTokens: 0,
  outputTokens: 5,
  costUsd: 0,
  latencyMs: 0,
});

/**
 * A model double for unit tests: answers by call name with scripted functions, and validates answers with the
 * request's zod schema like the real client, throwing `model_error` when the answer does not fit (as
 * `@tfgrpo/models` does after its retries). Integration tests use the sim server instead.
 */
export function createScriptedModels(options: ScriptedModelsOptions = {}): ScriptedModels {
  const calls: ScriptedCall[] = [];
  const embed = options.embed ?? createHashingEmbedder();
  let consolidations = 0;
  return {
    calls,
    async embed(texts) {
      return embed(texts);
    },
    async structured(role, request) {
      const prompt =
        [...request.messages].reverse().find((m: CuratorChatMessage) => m.role === "user")?.content ?? "";
      calls.push({ name: request.name, prompt });
      let answer: unknown;
      if (request.name === "conflict_check") {
        const a = /<experience_a[^>]*>([\s\S]*?)<\/experience_a>/.exec(prompt)?.[1] ?? "";
        const b = /<experience_b[^>]*>([\s\S]*?)<\/experience_b>/.exec(prompt)?.[1] ?? "";
        answer = options.conflict?.(a, b) ?? { conflict: false, reason: "different advice" };
      } else {
        answer = options.consolidation ? options.consolidation(prompt, consolidations++) : { operations: [] };
      }
      const parsed = request.schema.safeParse(answer);
      if (!parsed.success) {
        throw new TfgrpoError(
          "model_error",
          `scripted: no valid ${request.name}: ${formatZodIssues(parsed.error.issues)}`,
          { details: { usage: usage(role) } },
        );
      }
      return { value: parsed.data, usage: usage(role), attempts: 1, raw: JSON.stringify(answer) };
    },
  };
}

/** The `<suggested_updates>` of a consolidation prompt, parsed. */
export function suggestedUpdates(prompt: string): Array<Record<string, unknown>> {
  const body = /<suggested_updates>\s*([\s\S]*?)\s*<\/suggested_updates>/.exec(prompt)?.[1];
  if (!body) return [];
  const parsed = safeParseJson(body, z.array(z.record(z.string(), z.unknown())));
  if (!parsed.success) throw new Error(`suggested_updates: ${parsed.error}`);
  return parsed.value;
}

/** The experience ids shown in the `<experience>` block of a consolidation prompt. */
export function shownExperienceIds(prompt: string): string[] {
  const body = /<experience>\n([\s\S]*?)<\/experience>/.exec(prompt)?.[1] ?? "";
  return [...body.matchAll(/^\[(G\d+)\]\./gm)].map((match) => match[1]!);
}
