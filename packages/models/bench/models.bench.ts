// Models benchmark: what this package adds on top of the network. JSON repair on real-sized answers, config loading,
// and per-call client overhead (retrying fetch, usage accounting, SDKs) against the scripted server on loopback,
// next to a bare fetch of the same endpoint. Run: pnpm --filter @tfgrpo/models bench
import { readFile } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { readRealLibrary } from "@tfgrpo/protocol/testing";
import { z } from "zod";
import { parseModelsConfigYaml } from "../src/config/load-models-config.js";
import { parseModelsConfig } from "../src/config/parse-models-config.js";
import { createModels } from "../src/create-models.js";
import { repairJson } from "../src/repair-json.js";
import { startScriptedOpenAIServer } from "../src/testing/index.js";

const library = readRealLibrary("web");
const exampleYaml = await readFile(
  fileURLToPath(new URL("../../../examples/models.yaml", import.meta.url)),
  "utf8",
);

interface Row {
  case: string;
  n: number;
  meanUs: string;
  p50Us: string;
  p95Us: string;
  perSecond: string;
}

function summarise(name: string, timesMs: number[], wallMs?: number): Row {
  const sorted = [...timesMs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const mean = sorted.reduce((total, value) => total + value, 0) / sorted.length;
  const throughput = wallMs === undefined ? 1000 / mean : (sorted.length * 1000) / wallMs;
  return {
    case: name,
    n: sorted.length,
    meanUs: (mean * 1000).toFixed(1),
    p50Us: (at(0.5) * 1000).toFixed(1),
    p95Us: (at(0.95) * 1000).toFixed(1),
    perSecond: throughput.toFixed(0),
  };
}

function timeSync(name: string, iterations: number, work: () => unknown): Row {
  for (let warm = 0; warm < Math.min(200, iterations); warm++) work();
  const times: number[] = [];
  for (let iteration = 0; iteration < iterations; iteration++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  return summarise(name, times);
}

async function timeAsync(
  name: string,
  iterations: number,
  concurrency: number,
  work: () => Promise<unknown>,
): Promise<Row> {
  for (let warm = 0; warm < 20; warm++) await work();
  const times: number[] = [];
  let next = 0;
  const wallStart = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < iterations) {
        const start = performance.now();
        await work();
        times.push(performance.now() - start);
      }
    }),
  );
  return summarise(name, times, performance.now() - wallStart);
}

// Answers shaped like the curator's: one operation per real web-library entry (46), ~9 KB of JSON.
const operations = Object.entries(library).map(([id, text]) => ({
  option: "modify",
  experience_id: id,
  experience: text,
  reason: "tighter wording",
}));
const clean = JSON.stringify({ operations });
const fenced = `Here are the operations:\n\`\`\`json\n${JSON.stringify({ operations }, null, 2).replace(/}\n/g, "},\n")}\n\`\`\`\nDone.`;
const truncated = clean.slice(0, Math.floor(clean.length * 0.8));
const operationsSchema = z.object({
  operations: z.array(
    z.object({ option: z.string(), experience_id: z.string(), experience: z.string(), reason: z.string() }),
  ),
});
const accept = (value: unknown) => operationsSchema.safeParse(value).success;

const rows: Row[] = [
  timeSync(`repairJson clean (${(clean.length / 1024).toFixed(1)} KB)`, 2000, () => repairJson(clean)),
  timeSync("repairJson fenced + prose + trailing commas", 2000, () => repairJson(fenced)),
  timeSync("repairJson truncated at 80%", 500, () => repairJson(truncated)),
  timeSync("repairJson truncated at 80%, schema-accepted", 500, () => repairJson(truncated, { accept })),
  timeSync("parseModelsConfigYaml examples/models.yaml", 500, () =>
    parseModelsConfigYaml(exampleYaml, {
      env: { OPENAI_API_KEY: "sk-a-123456", DEEPSEEK_API_KEY: "sk-b-123456" },
    }),
  ),
];

{
  await using server = await startScriptedOpenAIServer();
  const config = parseModelsConfig({
    roles: {
      actor: { baseUrl: server.url, model: "bench", prices: { input: 0.4, cachedInput: 0.1, output: 1.6 } },
      judge: { baseUrl: server.url, model: "bench", structuredOutput: "json_object" },
      embedder: { baseUrl: server.url, model: "bench-embed", batchSize: 64 },
    },
  });
  const models = createModels(config);
  const body = JSON.stringify({ model: "bench", messages: [{ role: "user", content: "hi" }] });
  const bare = () =>
    fetch(`${server.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    }).then((response) => response.json());
  const messages = [{ role: "user" as const, content: "hi" }];
  const verdict = z.object({ verdict: z.string(), reason: z.string() });
  server.handle((request) =>
    request.body?.response_format?.type === "json_object"
      ? { kind: "chat", content: '```json\n{"verdict": "correct", "reason": "ok",}\n```' }
      : undefined,
  );
  const chat = models.chat("actor");
  const texts = Object.values(library);
  for (const concurrency of [1, 16]) {
    rows.push(await timeAsync(`bare fetch, ${concurrency} in flight`, 300, concurrency, bare));
    rows.push(
      await timeAsync(`complete(), ${concurrency} in flight`, 300, concurrency, () =>
        models.complete("actor", { messages }),
      ),
    );
    rows.push(
      await timeAsync(`chat().invoke(), ${concurrency} in flight`, 300, concurrency, () => chat.invoke("hi")),
    );
    rows.push(
      await timeAsync(`structured() with repair, ${concurrency} in flight`, 300, concurrency, () =>
        models.structured("judge", { messages, schema: verdict, name: "verdict" }),
      ),
    );
  }
  rows.push(await timeAsync(`embed() ${texts.length} texts (1 batch)`, 200, 1, () => models.embed(texts)));
}

console.log(
  "@tfgrpo/models benchmark (loopback scripted server; latencies are client + server on one machine)",
);
console.table(rows);
