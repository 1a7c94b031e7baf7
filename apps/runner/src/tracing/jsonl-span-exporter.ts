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
  readonly #onError: (message: string) => void;
  #stopped = false;
  #failed = false;

  /** `onError` hears once that the file cannot be written (a read-only or full disk); tracing never fails a run. */
  constructor(file: string, onError: (message: string) => void = () => {}) {
    this.#file = file;
    this.#onError = onError;
  }

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    if (this.#stopped) {
      done({ code: ExportResultCode.FAILED, error: new Error("exporter stopped") });
      return;
    }
    try {
      mkdirSync(path.dirname(this.#file), { recursive: true });
      appendFileSync(this.#file, spans.map((span) => `${JSON.stringify(toTraceLine(span))}\n`).join(""));
      done({ code: ExportResultCode.SUCCESS });
    } catch (error) {
      if (!this.#failed) {
        this.#failed = true;
        this.#onError(
          `trace file ${this.#file}: ${(error as Error).message} (spans are dropped; the run goes on)`,
        );
      }
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
