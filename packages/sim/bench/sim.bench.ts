// Benchmark of the sim world: CPU per simulated call by kind (in process), HTTP throughput with the real openai
// client, and world / suite generation. `pnpm bench` (or `pnpm --filter @tfgrpo/sim bench`) prints a table.
import { readRealLibrary } from "@tfgrpo/protocol/testing";
import OpenAI from "openai";
import {
  allPitfalls,
  type ChatRequest,
  createSimModel,
  createSimServer,
  createSuite,
  createWorld,
  embedText,
  quietNoise,
  readLesson,
} from "../src/index.js";
import { loadLessonBank } from "../src/testing/index.js";

function readEveryPitfall(text: string): void {
  for (const pitfall of allPitfalls) readLesson(pitfall.reading, text);
}

interface Row {
  name: string;
  calls: number;
  meanMicros: number;
  perSecond: number;
}

const rows: Row[] = [];

function measure(name: string, calls: number, run: (i: number) => void): void {
  for (let i = 0; i < Math.min(20, calls); i++) run(i); // warm caches and the JIT
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) run(i);
  const used = process.cpuUsage(start);
  const micros = (used.user + used.system) / calls;
  rows.push({ name, calls, meanMicros: micros, perSecond: 1e6 / micros });
}

async function measureAsync(
  name: string,
  calls: number,
  concurrency: number,
  run: (i: number) => Promise<unknown>,
): Promise<void> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < calls) await run(next++);
    }),
  );
  const elapsed = performance.now() - started;
  rows.push({ name, calls, meanMicros: (elapsed * 1000) / calls, perSecond: (calls * 1000) / elapsed });
}

const realMath = Object.entries(readRealLibrary("math")).map(([id, text]) => `[${id}]. ${text}`);

const coldStart = performance.now();
createWorld(987_654);
const coldWorldMs = performance.now() - coldStart;
measure("createSuite math, 100 tasks", 5, (i) =>
  createSuite({ domain: "math", seed: i, size: 100, split: "train" }),
);
measure("createSuite web, 100 tasks", 5, (i) =>
  createSuite({ domain: "web", seed: 1, size: 100, split: i % 2 ? "train" : "test" }),
);

const model = createSimModel({ seed: 1, noise: quietNoise });
const mathTasks = createSuite({ domain: "math", seed: 1, size: 50, split: "train" });
const webTasks = createSuite({ domain: "web", seed: 1, size: 50, split: "train" });
// Lessons written by an author who never read the sim (test-data/lesson-bank): one correct and one harmful per pitfall.
const bank = [loadLessonBank("math"), loadLessonBank("web")].flatMap((b) => Object.values(b.pitfalls));
const lessons = bank.map((p, i) => `[G${27 + i}]. ${p.correct[0]}`);
const system = `You are a solver.\n# Learned Experiences\n${[...realMath, ...lessons].join("\n")}\nCite ids. End with \\boxed{}.`;
const tools = ["code_interpreter", "web_search", "web_fetch"].map((name) => ({
  type: "function",
  function: { name },
}));
measure("policy reads one lesson against every pitfall (cold cache)", 2000, (i) =>
  readEveryPitfall(`${bank[i % bank.length]!.correct[i % 12]} (${i})`),
);
const actorRequest = (question: string, seed: number): ChatRequest => ({
  model: "sim-actor",
  seed,
  tools,
  messages: [
    { role: "system", content: system },
    { role: "user", content: question },
  ],
});

measure("actor turn, math (38 experiences)", 2000, (i) =>
  model.complete(actorRequest(mathTasks[i % 50]!.question, i)),
);
measure("actor turn, web (38 experiences)", 2000, (i) =>
  model.complete(actorRequest(webTasks[i % 50]!.question, i)),
);
const finalRequest = (i: number): ChatRequest => {
  const request = actorRequest(mathTasks[i % 50]!.question, i);
  const first = model.complete(request);
  const call = first.toolCalls[0]!;
  return {
    ...request,
    messages: [
      ...request.messages,
      {
        role: "assistant",
        content: first.content,
        tool_calls: [
          { id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } },
        ],
      },
      {
        role: "tool",
        tool_call_id: call.id,
        content: JSON.stringify({ stdout: "42\n", stderr: "", exitCode: 0, killed: false }),
      },
    ],
  };
};
const finals = Array.from({ length: 50 }, (_, i) => finalRequest(i));
measure("actor final turn after a tool result", 2000, (i) => model.complete(finals[i % 50]!));

const user = (content: string): ChatRequest => ({ model: "sim", messages: [{ role: "user", content }] });
const trajectory = `<trajectory>\nExperiences shown to the agent:\n${lessons.join("\n")}\n\nProblem:\n${mathTasks[0]!.question}\n\nStep 1 (assistant):\n${model.complete(actorRequest(mathTasks[0]!.question, 1)).content}\nTool call code_interpreter:\nArguments: {"code":"print(1)"}\nOutput:\n{"stdout":"12\\n","stderr":"","exitCode":0}\n</trajectory>\n<evaluation>wrong</evaluation>\n<groundtruth>14</groundtruth>`;
measure("critic summary", 2000, () => model.complete(user(trajectory)));
const attempts = [1, 0, 0, 1]
  .map(
    (reward, i) =>
      `<attempt index="${i + 1}" reward="${reward}">\nStep 1: Read the problem.\nStep 2: Ran code: count = sum(1 for n in range(${reward ? "12, 96 + 1" : "12 + 1, 96"}) if n % 4 == 0) -> printed ${reward ? 22 : 20}.\nStep 3: Gave the final answer ${reward ? 22 : 20}; the ground truth is 22.\n</attempt>`,
  )
  .join("\n");
const advantage = `<problem>${mathTasks[0]!.question}</problem>\n<trajectories>\n${attempts}\n</trajectories>\n<groundtruth>14</groundtruth>\n<experience>\n${realMath.join("\n")}\n</experience>`;
measure("critic group advantage (27-line library)", 2000, () => model.complete(user(advantage)));
const suggestions = bank.flatMap((p, i) =>
  p.correct.slice(0, 3).map((text, j) => ({
    temp_id: `P${i * 3 + j + 1}`,
    option: "add",
    experience: text,
    reason: "r",
  })),
);
const consolidation = `Each at most 32 words.\n<experience>\n${[...realMath, ...lessons].join("\n")}\n</experience>\n<suggested_updates>\n${JSON.stringify(suggestions)}\n</suggested_updates>`;
measure(`curator consolidation (${suggestions.length} proposals, 38 lines)`, 500, () =>
  model.complete(user(consolidation)),
);
measure("curator conflict check", 5000, () =>
  model.complete(
    user(
      `<experience_a id="G1">${bank[0]!.correct[0]}</experience_a>\n<experience_b id="G2">${bank[0]!.harmful[0]}</experience_b>`,
    ),
  ),
);
measure("judge", 5000, (i) =>
  model.complete(
    user(`<question>q</question>\n<groundtruth>${i}</groundtruth>\n<response>\\boxed{${i}}</response>`),
  ),
);
measure("embedding of one lesson (256-d)", 5000, (i) =>
  embedText(`${bank[i % bank.length]!.correct[0]} ${i}`),
);

{
  await using server = await createSimServer({ seed: 1 });
  const client = new OpenAI({ baseURL: server.url, apiKey: "sim", maxRetries: 0 });
  const body = (i: number) => ({
    model: "sim-actor",
    seed: i,
    tools: tools.map((t) => ({
      type: "function" as const,
      function: { name: t.function.name, parameters: { type: "object" } },
    })),
    messages: [
      { role: "system" as const, content: system },
      { role: "user" as const, content: mathTasks[i % 50]!.question },
    ],
  });
  await measureAsync("HTTP actor call, openai client, 1 in flight", 300, 1, (i) =>
    client.chat.completions.create(body(i)),
  );
  await measureAsync("HTTP actor call, openai client, 16 in flight", 1000, 16, (i) =>
    client.chat.completions.create(body(i)),
  );
  await measureAsync("HTTP embeddings (8 texts), 8 in flight", 300, 8, (i) =>
    client.embeddings.create({ model: "sim-embed", input: lessons.slice(0, 8).map((l) => `${l} ${i}`) }),
  );
}

const width = Math.max(...rows.map((r) => r.name.length));
process.stdout.write(
  `sim world benchmark (SIMULATED model; CPU time per call in process, wall time over HTTP)\n`,
);
process.stdout.write(`cold world generation (720 pages): ${coldWorldMs.toFixed(0)} ms\n\n`);
process.stdout.write(
  `${"what".padEnd(width)}  ${"calls".padStart(6)}  ${"µs/call".padStart(10)}  ${"calls/s".padStart(10)}\n`,
);
for (const row of rows) {
  process.stdout.write(
    `${row.name.padEnd(width)}  ${String(row.calls).padStart(6)}  ${row.meanMicros.toFixed(1).padStart(10)}  ${row.perSecond.toFixed(0).padStart(10)}\n`,
  );
}
