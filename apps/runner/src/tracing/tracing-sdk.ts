import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { ExportResultCode, W3CTraceContextPropagator } from "@opentelemetry/core";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { JsonlSpanExporter } from "./jsonl-span-exporter.js";

export type OtlpProtocol = "http/json" | "http/protobuf";

export interface TracingSdkOptions {
  serviceName: string;
  /** Local JSON-lines file of every span, or null. */
  jsonlFile: string | null;
  /** OTLP over HTTP (endpoint and headers from the standard OTEL_* variables), or null. */
  otlp: OtlpProtocol | null;
  /** Told once when the local file cannot be written. */
  onError?: (message: string) => void;
}

export interface TracingSdk {
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * The OpenTelemetry SDK, registered globally: async-local context (a span's children are what runs inside it, across
 * awaits), W3C trace-context propagation (NATS headers carry it to other processes), batch export. Loaded only when
 * tracing is on: this module is imported dynamically by `startTracing`, never statically.
 */
export async function registerTracingSdk(options: TracingSdkOptions): Promise<TracingSdk> {
  const exporters: SpanExporter[] = [];
  if (options.jsonlFile) exporters.push(new JsonlSpanExporter(options.jsonlFile, options.onError));
  if (options.otlp === "http/json") {
    const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
    exporters.push(reportingFailures(new OTLPTraceExporter(), "OTLP http/json", options.onError));
  } else if (options.otlp === "http/protobuf") {
    const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-proto");
    exporters.push(reportingFailures(new OTLPTraceExporter(), "OTLP http/protobuf", options.onError));
  }
  const spanProcessors: SpanProcessor[] = exporters.map(
    (exporter) => new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000, maxQueueSize: 65_536 }),
  );
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": options.serviceName }),
    spanProcessors,
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return {
    flush: () => provider.forceFlush(),
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/**
 * An exporter whose first failed export is told to the user in one line (the SDK's own error handler is silent unless
 * a diagnostic logger is set, so a wrong endpoint would drop every span without a word).
 */
function reportingFailures(
  exporter: SpanExporter,
  what: string,
  onError: ((message: string) => void) | undefined,
): SpanExporter {
  let told = false;
  return {
    export(spans, done) {
      exporter.export(spans, (result) => {
        if (result.code !== ExportResultCode.SUCCESS && !told) {
          told = true;
          onError?.(
            `${what}: ${result.error?.message ?? "export failed"} (spans are dropped; the run goes on)`,
          );
        }
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}
