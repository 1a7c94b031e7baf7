import { TfgrpoError } from "@tfgrpo/protocol";
import { expect, it } from "vitest";
import { z } from "zod";
import { parseModelsConfig } from "./config/parse-models-config.js";
import { createModels } from "./create-models.js";
import { type ScriptedReply, startScriptedOpenAIServer } from "./testing/index.js";

const answerSchema = z.object({ id: z.number().int(), verdict: z.enum(["correct", "incorrect"]) });

const faults = [
  (): ScriptedReply => ({ kind: "error", status: 429, retryAfter: 0 }),
  (): ScriptedReply => ({ kind: "error", status: 500 }),
  (): ScriptedReply => ({ kind: "error", status: 503 }),
  (): ScriptedReply => ({ kind: "hang" }),
  (): ScriptedReply => ({ kind: "drop" }),
  (): ScriptedReply => ({ kind: "drop-mid-body" }),
  (): ScriptedReply => ({ kind: "raw", body: '{"choices": [{"message": ' }),
  (id: number): ScriptedReply => ({ kind: "chat", content: `The verdict for ${id} is correct.` }),
  (id: number): ScriptedReply => ({ kind: "chat", content: answer(id).slice(0, -8), finishReason: "length" }),
  (id: number): ScriptedReply => ({ kind: "chat", content: `{"id": "${id}", "verdict": "maybe"}` }),
] as const;

function callId(body: { messages?: Array<{ role: string; content: string }> } | undefined): number {
  const user = body?.messages?.find((message) => message.role === "user")?.content ?? "";
  return Number(/<call id="(\d+)"/.exec(user)?.[1]);
}

function answer(id: number): string {
  return JSON.stringify({ id, verdict: id % 2 ? "correct" : "incorrect" });
}

/** A fixed pseudo-random number per (call, attempt), so the faults do not depend on arrival order. */
function draw(id: number, attempt: number, salt: number): number {
  let hash = (id * 2654435761 + attempt * 40503 + salt * 97) >>> 0;
  hash = Math.imul(hash ^ (hash >>> 15), 2246822507) >>> 0;
  hash = Math.imul(hash ^ (hash >>> 13), 3266489909) >>> 0;
  return ((hash ^ (hash >>> 16)) >>> 0) / 4294967296;
}

it("200 structured calls under a 20% mixed fault rate all end valid or with a clear error, none hang", async () => {
  await using server = await startScriptedOpenAIServer();
  const attemptsPerCall = new Map<number, number>();
  const faultsServed = new Map<string, number>();
  const poisonedInvalid = new Set([1001, 1002, 1003]);
  const poisonedDown = new Set([1004, 1005]);
  server.handle((request) => {
    const id = callId(request.body);
    const attempt = (attemptsPerCall.get(id) ?? 0) + 1;
    attemptsPerCall.set(id, attempt);
    const usage = { promptTokens: 50 + (id % 7), completionTokens: 10, cachedTokens: id % 3 === 0 ? 32 : 0 };
    if (poisonedInvalid.has(id)) return { kind: "chat", content: "I cannot answer in JSON.", usage };
    if (poisonedDown.has(id)) return { kind: "error", status: 500 };
    if (draw(id, attempt, 1) < 0.2) {
      const index = Math.floor(draw(id, attempt, 2) * faults.length);
      const reply = faults[index]!(id);
      const key =
        reply.kind === "chat"
          ? `content-${index}`
          : reply.kind === "error"
            ? `http-${reply.status}`
            : reply.kind;
      faultsServed.set(key, (faultsServed.get(key) ?? 0) + 1);
      return reply.kind === "chat" ? { ...reply, usage } : reply;
    }
    return { kind: "chat", content: answer(id), usage };
  });

  const config = parseModelsConfig({
    roles: {
      judge: {
        baseUrl: server.url,
        model: "judge-model",
        // Generous for a loaded CI machine (the client and server share one event loop); only hangs wait it out.
        timeoutMs: 3_000,
        maxRetries: 4,
        structuredOutput: "json_object",
        prices: { input: 0.27, cachedInput: 0.07, output: 1.1 },
      },
    },
  });
  const timeouts: string[] = [];
  const models = createModels(config, {
    sleep: async () => {},
    random: () => 0.5,
    logger: {
      warn: (message) => (message.includes("no response within") ? timeouts.push(message) : undefined),
    },
  });

  const ids = [...Array.from({ length: 200 }, (_, index) => index), ...poisonedInvalid, ...poisonedDown];
  const outcomes = new Map<number, { value?: z.infer<typeof answerSchema>; error?: unknown }>();
  let next = 0;
  // 16 calls in flight at a time, as a real run would have.
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < ids.length) {
        const id = ids[next++]!;
        try {
          const result = await models.structured("judge", {
            messages: [{ role: "user", content: `<call id="${id}"/> Grade it.` }],
            schema: answerSchema,
            name: "grade",
          });
          outcomes.set(id, { value: result.value });
        } catch (error) {
          outcomes.set(id, { error });
        }
      }
    }),
  );

  expect(outcomes.size).toBe(205);
  for (const id of ids) {
    const outcome = outcomes.get(id)!;
    if (poisonedInvalid.has(id)) {
      expect(TfgrpoError.hasCode(outcome.error, "model_error")).toBe(true);
      expect((outcome.error as Error).message).toMatch(
        /^judge \(judge-model\): no valid grade after 3 attempts: /,
      );
    } else if (poisonedDown.has(id)) {
      expect(TfgrpoError.hasCode(outcome.error, "model_error")).toBe(true);
      expect((outcome.error as Error).message).toBe(
        "judge (judge-model): 500 scripted error 500 (after 5 attempts)",
      );
    } else if (outcome.error) {
      // Three bad answers in a row can happen to an ordinary call too: it must then fail as clearly.
      expect(TfgrpoError.hasCode(outcome.error, "model_error")).toBe(true);
      expect((outcome.error as Error).message).toMatch(/^judge \(judge-model\): /);
    } else {
      // Each answer is its own call's: no crossed wires between concurrent calls.
      expect(outcome.value).toEqual(JSON.parse(answer(id)));
    }
  }
  const recovered = ids.filter((id) => id < 200 && outcomes.get(id)?.value !== undefined);
  expect(recovered.length).toBeGreaterThanOrEqual(195);
  // Every kind of fault was exercised.
  expect([...faultsServed.keys()].sort()).toEqual(
    [
      "content-7",
      "content-8",
      "content-9",
      "drop",
      "drop-mid-body",
      "hang",
      "http-429",
      "http-500",
      "http-503",
      "raw",
    ].sort(),
  );
  // Usage: exactly one record per answer the server completed, with exact token totals.
  const answered = server.requests.filter((request) => request.reply?.kind === "chat");
  const expectedInput = answered.reduce((total, request) => total + 50 + (callId(request.body) % 7), 0);
  // The deadline is wall-clock: on a starved machine an answer can arrive after it, and is then (rightly) neither
  // used nor recorded. Such late answers are the deadlines that did not meet a scripted hang.
  const finalTimeouts = [...outcomes.values()].filter((outcome) =>
    String((outcome.error as Error | undefined)?.message).includes("no response within"),
  ).length;
  const hangs = server.requests.filter((request) => request.reply?.kind === "hang").length;
  const late = timeouts.length + finalTimeouts - hangs;
  expect(late).toBeGreaterThanOrEqual(0);
  if (late === 0) {
    expect(models.usage.total.calls).toBe(answered.length);
    expect(models.usage.total.inputTokens).toBe(expectedInput);
    expect(models.usage.total.outputTokens).toBe(answered.length * 10);
  } else {
    expect(models.usage.total.calls).toBeLessThanOrEqual(answered.length);
    expect(models.usage.total.calls).toBeGreaterThanOrEqual(answered.length - late);
    expect(models.usage.total.outputTokens).toBe(models.usage.total.calls * 10);
  }
});
