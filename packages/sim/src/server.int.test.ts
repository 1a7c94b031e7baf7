import { get } from "node:http";
import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { cosineSimilarity } from "./embeddings.js";
import { createSimServer, type SimServer } from "./server.js";
import { createSuite } from "./suites/create-suite.js";

const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  {
    type: "function",
    function: {
      name: "code_interpreter",
      description: "Run Python",
      parameters: { type: "object", properties: { code: { type: "string" } }, required: ["code"] },
    },
  },
];

let server: SimServer;
let client: OpenAI;
const task = createSuite({ domain: "math", seed: 9, size: 7, split: "train" }).find(
  (t) => t.meta?.family === "range-multiples",
)!;
const system = `You are a mathematical problem solver.\n# Learned Experiences\n[G0]. When counting integers in a closed range, include both endpoints: the count is b - a + 1.\nCite ids like [G0]. End with \\boxed{answer}.`;

beforeAll(async () => {
  server = await createSimServer({ seed: 9, now: () => 1_700_000_000_000 });
  client = new OpenAI({ baseURL: server.url, apiKey: "sk-sim-not-a-secret", maxRetries: 0 });
});
afterAll(() => server.close());

describe("sim server with the openai client", () => {
  it("lists its models as simulated and labels every response", async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual([
      "sim-actor",
      "sim-critic",
      "sim-curator",
      "sim-judge",
      "sim-embed",
    ]);
    expect(JSON.stringify(models.data)).toContain("SIMULATED");
    const response = await fetch(`${server.url}/models`);
    expect(response.headers.get("x-tfgrpo-simulated")).toBe("1");
  });

  it("answers an actor call with a tool call, simulated ids and consistent usage", async () => {
    const completion = await client.chat.completions.create({
      model: "sim-actor",
      seed: 4,
      tools,
      messages: [
        { role: "system", content: system },
        { role: "user", content: task.question },
      ],
    });
    expect(completion.id).toMatch(/^simcmpl-[0-9a-f]{24}$/);
    expect(completion.system_fingerprint).toBe("tfgrpo-sim");
    expect(completion.created).toBe(1_700_000_000);
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe("tool_calls");
    const call = choice.message.tool_calls![0]!;
    expect(call.type === "function" && call.function.name).toBe("code_interpreter");
    expect(JSON.parse(call.type === "function" ? call.function.arguments : "{}").code).toContain("print(");
    const usage = completion.usage!;
    expect(usage.prompt_tokens).toBeGreaterThan((system.length + task.question.length) / 4);
    expect(usage.completion_tokens).toBeGreaterThan(0);
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
    expect(usage.prompt_tokens_details?.cached_tokens).toBeGreaterThanOrEqual(0);
  });

  it("reports cached prompt tokens for a repeated stable prefix", async () => {
    const ask = (question: string) =>
      client.chat.completions.create({
        model: "sim-actor",
        tools,
        prompt_cache_key: "cache-test",
        messages: [
          { role: "system", content: system.repeat(3) },
          { role: "user", content: question },
        ],
      });
    const first = await ask(task.question);
    const second = await ask(`${task.question} `);
    expect(first.usage!.prompt_tokens_details!.cached_tokens).toBe(0);
    const cached = second.usage!.prompt_tokens_details!.cached_tokens!;
    expect(cached).toBeGreaterThan(second.usage!.prompt_tokens * 0.8);
    expect(cached).toBeLessThanOrEqual(second.usage!.prompt_tokens);
  });

  it("answers structured calls in the requested format", async () => {
    const judge = `<question>${task.question}</question>\n<groundtruth>${task.answer}</groundtruth>\n<response>\\boxed{${task.answer}}</response>`;
    const verdict = z.object({ verdict: z.enum(["correct", "partial", "incorrect"]), reason: z.string() });
    const withSchema = await client.chat.completions.create({
      model: "sim-judge",
      messages: [{ role: "user", content: judge }],
      response_format: {
        type: "json_schema",
        json_schema: {
          name: "verdict",
          strict: true,
          schema: z.toJSONSchema(verdict) as Record<string, unknown>,
        },
      },
    });
    expect(verdict.strict().parse(JSON.parse(withSchema.choices[0]!.message.content!)).verdict).toBe(
      "correct",
    );
    const jsonMode = await client.chat.completions.create({
      model: "sim-judge",
      messages: [{ role: "user", content: judge }],
      response_format: { type: "json_object" },
    });
    expect(JSON.parse(jsonMode.choices[0]!.message.content!).verdict).toBe("correct");
    const plain = await client.chat.completions.create({
      model: "sim-judge",
      messages: [{ role: "user", content: judge }],
    });
    expect(plain.choices[0]!.message.content).toMatch(/```json\n\{[\s\S]*"verdict": "correct"[\s\S]*\}\n```/);
  });

  it("streams content, tool calls and usage", async () => {
    const stream = await client.chat.completions.create({
      model: "sim-actor",
      seed: 4,
      tools,
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: "system", content: system },
        { role: "user", content: task.question },
      ],
    });
    let content = "";
    let args = "";
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      content += choice?.delta.content ?? "";
      args += choice?.delta.tool_calls?.[0]?.function?.arguments ?? "";
      finish = choice?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(content).toContain("code interpreter");
    expect(JSON.parse(args).code).toContain("print(");
    expect(finish).toBe("tool_calls");
    expect(usage?.completion_tokens).toBeGreaterThan(0);
  });

  it("cuts an answer at max_tokens with finish_reason length", async () => {
    const completion = await client.chat.completions.create({
      model: "sim-actor",
      max_tokens: 5,
      messages: [{ role: "user", content: task.question }],
    });
    expect(completion.choices[0]!.finish_reason).toBe("length");
    expect(completion.choices[0]!.message.content!.length).toBeLessThanOrEqual(20);
  });

  it("embeds paraphrases close together (base64 by default, floats on request)", async () => {
    const texts = [
      "When counting integers in a closed range, include both endpoints.",
      "For inclusive ranges of integers, count both endpoints too.",
      "Prefer the most recent census report.",
    ];
    const base64 = await client.embeddings.create({ model: "sim-embed", input: texts });
    const vectors = base64.data.map((d) => Array.from(d.embedding));
    expect(vectors[0]).toHaveLength(256);
    expect(cosineSimilarity(vectors[0]!, vectors[1]!)).toBeGreaterThan(
      cosineSimilarity(vectors[0]!, vectors[2]!) + 0.3,
    );
    const floats = await client.embeddings.create({
      model: "sim-embed",
      input: texts[0]!,
      encoding_format: "float",
      dimensions: 64,
    });
    expect(floats.data[0]!.embedding).toHaveLength(64);
    expect(base64.usage.prompt_tokens).toBeGreaterThan(0);
  });

  it("refuses a malformed request with a 400 naming the field", async () => {
    await expect(client.chat.completions.create({ model: "sim-actor", messages: [] })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("messages"),
    });
  });

  it("gives the same answers for the same seed on another port", async () => {
    await using other = await createSimServer({ seed: 9 });
    const otherClient = new OpenAI({ baseURL: other.url, apiKey: "sim", maxRetries: 0 });
    const body = {
      model: "sim-actor",
      seed: 11,
      tools,
      messages: [{ role: "user" as const, content: task.question }],
    };
    const [a, b] = await Promise.all([
      client.chat.completions.create(body),
      otherClient.chat.completions.create(body),
    ]);
    expect(other.port).not.toBe(server.port);
    expect(b.choices).toEqual(a.choices);
  });
});

describe("sim server with LangChain", () => {
  it("binds tools, parses tool calls and reports usage metadata", async () => {
    const model = new ChatOpenAI({
      model: "sim-actor",
      apiKey: "sim",
      configuration: { baseURL: server.url },
      maxRetries: 0,
    });
    const withTools = model.bindTools([
      {
        name: "code_interpreter",
        description: "Run Python",
        schema: z.object({ code: z.string().describe("Python code") }),
      },
    ]);
    const messages = [
      { role: "system", content: system },
      { role: "user", content: task.question },
    ];
    const first = await withTools.invoke(messages);
    expect(first.tool_calls?.[0]).toMatchObject({
      name: "code_interpreter",
      args: { code: expect.stringContaining("print(") },
    });
    expect(first.usage_metadata?.input_tokens).toBeGreaterThan(0);
    expect(first.usage_metadata?.output_tokens).toBeGreaterThan(0);
    const second = await withTools.invoke(messages);
    expect(second.usage_metadata?.input_token_details?.cache_read).toBeGreaterThan(0);
  });

  it("gets structured output and embeddings", async () => {
    const judge = new ChatOpenAI({
      model: "sim-judge",
      apiKey: "sim",
      configuration: { baseURL: server.url },
      maxRetries: 0,
    });
    const structured = judge.withStructuredOutput(
      z.object({ verdict: z.enum(["correct", "partial", "incorrect"]), reason: z.string() }),
    );
    const verdict = await structured.invoke(
      `<question>q</question>\n<groundtruth>${task.answer}</groundtruth>\n<response>\\boxed{0}</response>`,
    );
    expect(verdict.verdict).toBe("incorrect");
    const embeddings = new OpenAIEmbeddings({
      model: "sim-embed",
      apiKey: "sim",
      configuration: { baseURL: server.url },
    });
    const vector = await embeddings.embedQuery("count both endpoints");
    expect(vector).toHaveLength(256);
  });
});

describe("the simulated web", () => {
  it("serves search, pages (path, url and Host routing) and the corpus as JSONL", async () => {
    const search = (await (
      await fetch(`${server.corpusUrl}/search?q=${encodeURIComponent("population census")}`)
    ).json()) as {
      results: { url: string }[];
    };
    expect(search.results.length).toBe(5);
    const doc = server.world.corpus.documents[0]!;
    const path = new URL(doc.url);
    const byPath = await fetch(`${server.corpusUrl}/${path.host}${path.pathname}`);
    expect(byPath.status).toBe(200);
    expect(await byPath.text()).toBe(doc.content);
    const byUrl = await fetch(`${server.corpusUrl}/page?url=${encodeURIComponent(doc.url)}`);
    expect(await byUrl.text()).toBe(doc.content);
    // fetch() may not set Host; node:http can, as a client resolving *.example to the sim would.
    const byHost = await new Promise<string>((resolve, reject) => {
      get(
        { host: "127.0.0.1", port: server.port, path: path.pathname, headers: { host: path.host } },
        (response) => {
          let body = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => {
            body += chunk;
          });
          response.on("end", () => resolve(body));
        },
      ).on("error", reject);
    });
    expect(byHost).toBe(doc.content);
    const missing = await fetch(`${server.corpusUrl}/www.nowhere.example/x`);
    expect(missing.status).toBe(404);
    const jsonl = await (await fetch(`${server.corpusUrl}/documents.jsonl`)).text();
    const lines = jsonl
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { url: string; title: string; content: string });
    expect(lines).toHaveLength(server.world.corpus.documents.length);
    expect(lines[0]!.url.startsWith(server.corpusUrl)).toBe(true);
    expect((await fetch(lines[0]!.url)).status).toBe(200);
  });
});
