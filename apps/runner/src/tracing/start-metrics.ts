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

export interface MetricsHandle extends AsyncDisposable {
  readonly file: string | null;
}

const off: MetricsHandle = { file: null, [Symbol.asyncDispose]: async () => {} };

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
 * OpenTelemetry metrics of this process (the online learner's, meter `tfgrpo.online`) to a JSON-lines file, when
 * `TFGRPO_METRICS_FILE` (or `file`) names one: cumulative values every OTEL_METRIC_EXPORT_INTERVAL ms (default
 * 10,000) and at shutdown. Without a file the API's meter stays a no-op.
 */
export function startMetrics(options: { file?: string | null; env?: NodeJS.ProcessEnv } = {}): MetricsHandle {
  const env = options.env ?? process.env;
  const file = env.TFGRPO_METRICS_FILE ? path.resolve(env.TFGRPO_METRICS_FILE) : (options.file ?? null);
  if (file === null) return off;
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
