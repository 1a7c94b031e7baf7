import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { metrics } from "@opentelemetry/api";
import {
  AggregationTemporality,
  DataPointType,
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
  type ResourceMetrics,
} from "@opentelemetry/sdk-metrics";

/** One JSON line per metric data point: `{time, name, attributes, value}` (histograms are not used). */
function jsonLines(resource: ResourceMetrics): string {
  const lines: string[] = [];
  for (const scope of resource.scopeMetrics)
    for (const metric of scope.metrics) {
      if (metric.dataPointType === DataPointType.HISTOGRAM) continue;
      if (metric.dataPointType === DataPointType.EXPONENTIAL_HISTOGRAM) continue;
      for (const point of metric.dataPoints)
        lines.push(
          JSON.stringify({
            time: new Date(point.endTime[0] * 1000 + point.endTime[1] / 1e6).toISOString(),
            name: metric.descriptor.name,
            attributes: point.attributes,
            value: point.value,
          }),
        );
    }
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

/**
 * The metrics SDK with a JSON-lines exporter into `file`: cumulative values every OTEL_METRIC_EXPORT_INTERVAL ms
 * (default 10,000) and at shutdown. Loaded by `startMetrics` only when metrics are on.
 */
export function startMetricsSdk(
  file: string,
  env: NodeJS.ProcessEnv,
): AsyncDisposable & { readonly file: string } {
  mkdirSync(path.dirname(file), { recursive: true });
  const exporter: PushMetricExporter = {
    export(resource, done) {
      try {
        appendFileSync(file, jsonLines(resource));
        done({ code: 0 });
      } catch (error) {
        done({ code: 1, error: error as Error });
      }
    },
    forceFlush: async () => {},
    shutdown: async () => {},
    selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
  };
  const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL ?? 10_000);
  const provider = new MeterProvider({
    readers: [
      new PeriodicExportingMetricReader({
        exporter,
        exportIntervalMillis: Number.isFinite(interval) && interval > 0 ? interval : 10_000,
      }),
    ],
  });
  metrics.setGlobalMeterProvider(provider);
  return { file, [Symbol.asyncDispose]: () => provider.shutdown().catch(() => {}) };
}
