import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { SpanStatusCode } from "@opentelemetry/api";
import { type ExportResult, ExportResultCode, hrTimeToMilliseconds } from "@opentelemetry/core";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";
import type { TraceLine } from "./trace-line.js";

/**
 * Writes finished spans to a local JSON-lines file, one span per line, for users without a tracing backend
 * (`tfgrpo trace RUN` reads it). Batches arrive from the batch processor, so a write is one append per batch.
 */
export class JsonlSpanExporter implements SpanExporter {
  readonly #file: string;
  #stopped = false;

  constructor(file: string) {
    this.#file = file;
    mkdirSync(path.dirname(file), { recursive: true });
  }

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    if (this.#stopped) {
      done({ code: ExportResultCode.FAILED, error: new Error("exporter stopped") });
      return;
    }
    try {
      appendFileSync(this.#file, spans.map((span) => `${JSON.stringify(toTraceLine(span))}\n`).join(""));
      done({ code: ExportResultCode.SUCCESS });
    } catch (error) {
      done({ code: ExportResultCode.FAILED, error: error as Error });
    }
  }

  async shutdown(): Promise<void> {
    this.#stopped = true;
  }

  async forceFlush(): Promise<void> {}
}

function toTraceLine(span: ReadableSpan): TraceLine {
  const context = span.spanContext();
  const status =
    span.status.code === SpanStatusCode.ERROR
      ? "error"
      : span.status.code === SpanStatusCode.OK
        ? "ok"
        : "unset";
  return {
    traceId: context.traceId,
    spanId: context.spanId,
    parentSpanId: span.parentSpanContext?.spanId ?? null,
    name: span.name,
    start: hrTimeToMilliseconds(span.startTime),
    durationMs: hrTimeToMilliseconds(span.duration),
    status,
    ...(span.status.message ? { statusMessage: span.status.message } : {}),
    service: String(span.resource.attributes["service.name"] ?? "tfgrpo"),
    attributes: { ...span.attributes },
  };
}
