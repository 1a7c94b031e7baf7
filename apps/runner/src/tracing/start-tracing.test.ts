import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { inSpan, isTracing, traceHeaders } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { startTracing } from "./start-tracing.js";

describe("startTracing", () => {
  it("stays off without a destination, or when OTEL_SDK_DISABLED / TFGRPO_TRACE=off / --no-trace say so", async () => {
    const file = path.join(await mkdtemp(path.join(os.tmpdir(), "tfgrpo-trace-")), "t.jsonl");
    for (const [env, disabled] of [
      [{}, false],
      [{ OTEL_SDK_DISABLED: "true", TFGRPO_TRACE_FILE: file }, false],
      [{ TFGRPO_TRACE: "off", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1" }, false],
      [{ TFGRPO_TRACE_FILE: file }, true],
    ] as const) {
      await using tracing = await startTracing({ serviceName: "t", env, disabled });
      expect(tracing.enabled).toBe(false);
      // The API stays the no-op: nothing records, no trace headers go out.
      await inSpan("nothing", {}, async () => {
        expect(isTracing()).toBe(false);
        expect(traceHeaders()).toEqual({});
      });
    }
  });

  it("refuses an OTLP protocol it cannot speak, naming the variable", async () => {
    await expect(
      startTracing({
        serviceName: "t",
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" },
      }),
    ).rejects.toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL=grpc/);
  });

  it("writes nested spans to the local file, with parents and attributes, and propagates W3C headers", async () => {
    const file = path.join(await mkdtemp(path.join(os.tmpdir(), "tfgrpo-trace-")), "run.jsonl");
    {
      await using tracing = await startTracing({ serviceName: "tfgrpo-test", jsonlFile: file, env: {} });
      expect(tracing.enabled).toBe(true);
      await inSpan("outer", { root: true, attributes: { "tfgrpo.step": 1 } }, async () => {
        await inSpan("inner", {}, async () => {
          expect(isTracing()).toBe(true);
          expect(traceHeaders().traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
        });
      });
    }
    const lines = (await readFile(file, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const outer = lines.find((line) => line.name === "outer");
    const inner = lines.find((line) => line.name === "inner");
    expect(outer).toMatchObject({
      parentSpanId: null,
      service: "tfgrpo-test",
      attributes: { "tfgrpo.step": 1 },
    });
    expect(inner).toMatchObject({ parentSpanId: outer.spanId, traceId: outer.traceId });
  });

  it("never fails a run over its trace file: a file that cannot be written is reported once and spans are dropped", async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-trace-"));
    const notADirectory = path.join(directory, "plain-file");
    await writeFile(notADirectory, "x");
    const lines: string[] = [];
    {
      await using tracing = await startTracing({
        serviceName: "t",
        jsonlFile: path.join(notADirectory, "traces", "run.jsonl"),
        env: {},
        log: (line) => lines.push(line),
      });
      for (let i = 0; i < 3; i++) {
        await inSpan(`span ${i}`, {}, async () => {});
        await tracing.flush();
      }
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^tracing: trace file .*run\.jsonl: .*ENOTDIR.*the run goes on/);
  });

  it("says in one line when the OTLP endpoint cannot be reached, and the run goes on", async () => {
    const saved = { ...process.env };
    // The exporters read the standard variables from the process environment themselves.
    Object.assign(process.env, {
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_TIMEOUT: "2000",
    });
    const lines: string[] = [];
    try {
      await using tracing = await startTracing({ serviceName: "t", log: (line) => lines.push(line) });
      expect(tracing.destinations).toEqual(["OTLP http/json"]);
      await inSpan("unsent", {}, async () => {});
      await tracing.flush();
    } finally {
      process.env = saved;
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^tracing: OTLP http\/json: .*the run goes on\)$/);
  });
});
