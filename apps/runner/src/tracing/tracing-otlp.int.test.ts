import { mkdtemp } from "node:fs/promises";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { startNatsServer } from "@tfgrpo/bus-nats/testing";
import { createSimServer, createSuite, writeSuiteJsonl } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { expect, it } from "vitest";
import { repositoryRoot, spawnCli, waitForStderr } from "../testing/spawn-cli.js";
import { readTraceFile } from "./read-trace-file.js";

const simConfig = path.join(repositoryRoot, "examples/models.sim.yaml");

interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  attributes: Record<string, unknown>;
}

/** A real OTLP/HTTP receiver: decodes every `POST /v1/traces` body (OTLP JSON, gzip or not) into spans. */
async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const server = createServer(async (request, response) => {
    const body = await readBody(request);
    if (request.method !== "POST" || request.url !== "/v1/traces") {
      response.writeHead(404).end();
      return;
    }
    if (!String(request.headers["content-type"]).includes("application/json")) {
      response.writeHead(415).end();
      return;
    }
    const payload = JSON.parse(body.toString("utf8")) as OtlpPayload;
    for (const resourceSpans of payload.resourceSpans ?? []) {
      const resource = attributesOf(resourceSpans.resource?.attributes);
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          spans.push({
            service: String(resource["service.name"]),
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ? span.parentSpanId : null,
            name: span.name,
            attributes: attributesOf(span.attributes),
          });
        }
      }
    }
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    [Symbol.asyncDispose]: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}
interface OtlpPayload {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: OtlpValue }> };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        attributes?: Array<{ key: string; value: OtlpValue }>;
      }>;
    }>;
  }>;
}

function decodeValue(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(decodeValue);
  return undefined;
}

function attributesOf(list: Array<{ key: string; value: OtlpValue }> | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, decodeValue(value)]));
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  return request.headers["content-encoding"] === "gzip" ? gunzipSync(body) : body;
}

it("exports one connected trace per learning step over OTLP/HTTP, a worker's rollouts inside the runner's step, model-call costs adding up to the run's usage", async () => {
  const directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-tracing-"));
  const train = path.join(directory, "train.jsonl");
  const val = path.join(directory, "val.jsonl");
  await writeSuiteJsonl(train, createSuite({ domain: "math", seed: 3, size: 4, split: "train" }));
  await writeSuiteJsonl(val, createSuite({ domain: "math", seed: 3, size: 3, split: "val" }));
  await using receiver = await startOtlpReceiver();
  await using nats = await startNatsServer();
  await using sim = await createSimServer({ seed: 3 });
  const env = {
    SIM_PORT: String(sim.port),
    TFGRPO_NATS_URL: "",
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
  };
  const worker = spawnCli(
    ["serve", "--role", "actor", "--nats", nats.url, "--config", simConfig, "--concurrency", "4"],
    { env },
  );
  const db = path.join(directory, "tfgrpo.db");
  const runId = "traced-run";
  try {
    await waitForStderr(worker, /serving tfgrpo\.actor\.rollout/, "actor worker");
    const runner = spawnCli(
      [
        ...["learn", "--nats", nats.url, "--local-roles", "critic,curator", "--config", simConfig],
        ...["--domain", "math", "--train", train, "--val", val, "--epochs", "1", "--batch-size", "2"],
        ...["--group-size", "3", "--mode", "direct", "--seed", "3", "--db", db, "--run-id", runId],
      ],
      { env },
    );
    expect(await runner.exited, runner.output.stderr).toBe(0);
  } finally {
    // A stopped worker flushes its spans before it exits.
    worker.child.kill("SIGTERM");
    await worker.exited;
  }

  const spans = receiver.spans;
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  const steps = spans.filter((span) => /^learn step \d+$/.test(span.name));
  expect(steps.map((span) => span.attributes["tfgrpo.step"]).sort()).toEqual([1, 2]);
  for (const step of steps) {
    expect(step.parentSpanId).toBeNull();
    expect(step.service).toBe("tfgrpo-runner");
    const inTrace = spans.filter((span) => span.traceId === step.traceId);
    // Connected: every span but the step's own has its parent in the same trace.
    for (const span of inTrace)
      if (span !== step) expect(byId.get(span.parentSpanId ?? "")?.traceId).toBe(step.traceId);
    const rollouts = inTrace.filter(
      (span) => span.name === "rollout" && span.attributes["tfgrpo.purpose"] === "train",
    );
    expect(rollouts.length).toBe(2 * 3);
    for (const rollout of rollouts) {
      expect(rollout.service).toBe("tfgrpo-actor");
      // rollout (worker) -> job (worker) -> the rollout node (runner) -> the step.
      const job = byId.get(rollout.parentSpanId!)!;
      expect(job.name).toBe("job tfgrpo.actor.rollout");
      const node = byId.get(job.parentSpanId!)!;
      expect([node.name, node.service]).toEqual(["rollout", "tfgrpo-runner"]);
      expect(node.parentSpanId).toBe(step.spanId);
      const calls = inTrace.filter(
        (span) => span.parentSpanId === rollout.spanId && span.name.startsWith("chat "),
      );
      expect(calls.length).toBeGreaterThan(0);
    }
  }

  // Every model call's span carries its tokens and cost; together they are the run's usage, exactly.
  const calls = spans.filter((span) => span.attributes["gen_ai.operation.name"] === "chat");
  const store = await createStore(db, { mustExist: true });
  try {
    const usage = (await store.getUsageTotals(runId)).total;
    const sum = (key: string) => calls.reduce((total, span) => total + Number(span.attributes[key] ?? 0), 0);
    expect(calls.length).toBe(usage.calls);
    expect(sum("gen_ai.usage.input_tokens")).toBe(usage.inputTokens);
    expect(sum("gen_ai.usage.output_tokens")).toBe(usage.outputTokens);
    expect(sum("gen_ai.usage.cache_read.input_tokens")).toBe(usage.cachedInputTokens);
    expect(sum("tfgrpo.cost_usd")).toBeCloseTo(usage.costUsd, 9);
  } finally {
    await store.close();
  }

  // The runner's own spans also went to the run's local trace file, which `tfgrpo trace` reads.
  const local = await readTraceFile(path.join(directory, "traces", `${runId}.jsonl`));
  expect(local.filter((span) => span.name.startsWith("learn step")).length).toBe(2);
  expect(local.every((span) => span.service === "tfgrpo-runner")).toBe(true);
}, 300_000);
