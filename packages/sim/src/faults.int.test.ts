import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { createSimServer } from "./server.js";
import { createSuite } from "./suites/create-suite.js";

const tasks = createSuite({ domain: "math", seed: 12, size: 30, split: "train" });
const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  {
    type: "function",
    function: {
      name: "code_interpreter",
      parameters: { type: "object", properties: { code: { type: "string" } } },
    },
  },
];

async function inBatches<T>(jobs: (() => Promise<T>)[], size: number): Promise<PromiseSettledResult<T>[]> {
  const out: PromiseSettledResult<T>[] = [];
  for (let i = 0; i < jobs.length; i += size)
    out.push(...(await Promise.allSettled(jobs.slice(i, i + size).map((job) => job()))));
  return out;
}

describe("faults", () => {
  it("a 20% mixed fault rate: every call ends, faults of every kind happen, the client recovers from most", async () => {
    await using server = await createSimServer({
      seed: 12,
      faults: "rate=0.2,kinds=429,500,hang,malformed,truncated,latency=40,retryAfterMs=20",
    });
    const client = new OpenAI({ baseURL: server.url, apiKey: "sim", timeout: 1000, maxRetries: 2 });
    const jobs: (() => Promise<{ kind: string; ok: boolean }>)[] = [];
    for (const [i, task] of tasks.entries()) {
      jobs.push(async () => {
        const completion = await client.chat.completions.create({
          model: "sim-actor",
          seed: i,
          tools,
          messages: [{ role: "user", content: task.question }],
        });
        const call = completion.choices[0]!.message.tool_calls?.[0];
        const args = call?.type === "function" ? call.function.arguments : "";
        let ok = completion.choices[0]!.finish_reason !== "length";
        try {
          JSON.parse(args);
        } catch {
          ok = false;
        }
        return { kind: "actor", ok };
      });
      jobs.push(async () => {
        const completion = await client.chat.completions.create({
          model: "sim-judge",
          response_format: { type: "json_object" },
          messages: [
            {
              role: "user",
              content: `<question>${task.question}</question>\n<groundtruth>${task.answer}</groundtruth>\n<response>\\boxed{${task.answer}}</response>`,
            },
          ],
        });
        try {
          JSON.parse(completion.choices[0]!.message.content ?? "");
          return { kind: "judge", ok: completion.choices[0]!.finish_reason === "stop" };
        } catch {
          return { kind: "judge", ok: false };
        }
      });
      jobs.push(async () => {
        await client.embeddings.create({ model: "sim-embed", input: `${task.question} #${i}` });
        return { kind: "embed", ok: true };
      });
    }
    const results = await inBatches(jobs, 15);
    // Every one of the 90 calls ended one way or the other (a hang would have timed this test out).
    expect(results).toHaveLength(90);
    const fulfilled = results.filter(
      (r): r is PromiseFulfilledResult<{ kind: string; ok: boolean }> => r.status === "fulfilled",
    );
    const damaged = fulfilled.filter((r) => !r.value.ok);
    expect(fulfilled.length).toBeGreaterThan(75);
    expect(damaged.length).toBeGreaterThan(0);
    const stats = server.stats();
    for (const kind of [
      "rateLimit",
      "serverError",
      "hang",
      "malformedJson",
      "truncated",
      "latency",
    ] as const) {
      expect(stats.faults[kind], kind).toBeGreaterThan(0);
    }
  });

  it("answers 429 with Retry-After, which the client honours and retries", async () => {
    await using server = await createSimServer({
      seed: 1,
      faults: { rate: 1, kinds: { rateLimit: { retryAfterMs: 30 } } },
    });
    const client = new OpenAI({ baseURL: server.url, apiKey: "sim", maxRetries: 1 });
    const error = await client.chat.completions
      .create({ model: "sim-actor", messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const headers = (error as InstanceType<typeof OpenAI.RateLimitError>).headers;
    expect(headers.get("retry-after")).toBe("1");
    expect(headers.get("retry-after-ms")).toBe("30");
    expect(headers.get("x-tfgrpo-simulated")).toBe("1");
    expect(server.stats().faults.rateLimit).toBe(2);
  });

  it("answers 500s the client sees as server errors", async () => {
    await using server = await createSimServer({ seed: 1, faults: "rate=1,kinds=500" });
    const client = new OpenAI({ baseURL: server.url, apiKey: "sim", maxRetries: 0 });
    await expect(
      client.chat.completions.create({ model: "sim-actor", messages: [{ role: "user", content: "hi" }] }),
    ).rejects.toBeInstanceOf(OpenAI.InternalServerError);
  });

  it("hangs until the client gives up, and closes hanging sockets on close()", async () => {
    const server = await createSimServer({ seed: 1, faults: "rate=1,kinds=hang" });
    const patient = new OpenAI({ baseURL: server.url, apiKey: "sim", timeout: 300, maxRetries: 0 });
    await expect(
      patient.chat.completions.create({ model: "sim-actor", messages: [{ role: "user", content: "hi" }] }),
    ).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    const forever = new OpenAI({ baseURL: server.url, apiKey: "sim", timeout: 600_000, maxRetries: 0 });
    const pending = forever.chat.completions.create({
      model: "sim-actor",
      messages: [{ role: "user", content: "hi" }],
    });
    const outcome = pending.then(
      () => "answered",
      () => "failed",
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await server.close();
    expect(await outcome).toBe("failed");
  });

  it("breaks structured JSON and truncates content with finish_reason length", async () => {
    const judge = {
      model: "sim-judge",
      response_format: { type: "json_object" as const },
      messages: [
        {
          role: "user" as const,
          content: "<question>q</question><groundtruth>1</groundtruth><response>1</response>",
        },
      ],
    };
    await using malformed = await createSimServer({ seed: 1, faults: "rate=1,kinds=malformed" });
    const a = await new OpenAI({ baseURL: malformed.url, apiKey: "sim" }).chat.completions.create(judge);
    expect(() => JSON.parse(a.choices[0]!.message.content!)).toThrow();
    await using truncated = await createSimServer({ seed: 1, faults: "rate=1,kinds=truncated" });
    const b = await new OpenAI({ baseURL: truncated.url, apiKey: "sim" }).chat.completions.create(judge);
    expect(b.choices[0]!.finish_reason).toBe("length");
    expect(() => JSON.parse(b.choices[0]!.message.content!)).toThrow();
  });
});
