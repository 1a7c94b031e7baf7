import type { ChatMessage } from "@tfgrpo/models";
import { formatZodIssues, type Role, TfgrpoError, type Usage } from "@tfgrpo/protocol";
import type { CriticModels } from "../critic-models.js";

export interface FakeModelCall {
  role: Role;
  kind: "complete" | "structured";
  /** The structured request's name (`group_advantage`, `judge_verdict`). */
  name?: string;
  messages: ChatMessage[];
  /** Text of the last user message, where the prompt contract's markers are. */
  prompt: string;
}

/** What the fake answers: text (complete), a value (structured), or an Error to throw. */
export type FakeModelAnswer = string | Record<string, unknown> | Error;

export type FakeCriticModels = CriticModels & { calls: FakeModelCall[] };

/**
 * An in-memory stand-in for `@tfgrpo/models` in unit tests: each call is recorded and answered by `answer`.
 * Structured values are validated with the request's schema; an invalid one fails as the real layer does after its
 * retries (a TfgrpoError "model_error"). Every call reports 10 input and 5 output tokens.
 */
export function fakeCriticModels(answer: (call: FakeModelCall) => FakeModelAnswer): FakeCriticModels {
  const calls: FakeModelCall[] = [];
  const usage = (role: Role): Usage => ({
    role,
    model: "fake",
    inputTokens: 10,
    cachedInputTokens: 0,
    outputTokens: 5,
    costUsd: 0.001,
    latencyMs: 1,
  });
  const record = (call: Omit<FakeModelCall, "prompt">): FakeModelCall => {
    const full = { ...call, prompt: call.messages.filter((m) => m.role === "user").at(-1)?.content ?? "" };
    calls.push(full);
    return full;
  };
  const models = {
    calls,
    async complete(role: Role, request: { messages: ChatMessage[] }) {
      const reply = answer(record({ role, kind: "complete", messages: request.messages }));
      if (reply instanceof Error) throw reply;
      if (typeof reply !== "string") throw new Error("fakeCriticModels: complete() needs a string answer");
      return { text: reply, usage: usage(role) };
    },
    async structured(
      role: Role,
      request: { messages: ChatMessage[]; schema: { safeParse: (v: unknown) => unknown }; name: string },
    ) {
      const reply = answer(
        record({ role, kind: "structured", name: request.name, messages: request.messages }),
      );
      if (reply instanceof Error) throw reply;
      const value = typeof reply === "string" ? JSON.parse(reply) : reply;
      const parsed = request.schema.safeParse(value) as
        | { success: true; data: unknown }
        | { success: false; error: { issues: Parameters<typeof formatZodIssues>[0] } };
      if (!parsed.success) {
        throw new TfgrpoError(
          "model_error",
          `fake ${role}: no valid ${request.name}: ${formatZodIssues(parsed.error.issues)}`,
          {
            details: { usage: usage(role) },
          },
        );
      }
      return {
        value: parsed.data,
        usage: usage(role),
        attempts: 1,
        raw: JSON.stringify(value),
        mode: "json_schema" as const,
      };
    },
  };
  return models as unknown as FakeCriticModels;
}
