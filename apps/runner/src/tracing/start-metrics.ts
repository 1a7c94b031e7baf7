import path from "node:path";

export interface MetricsHandle extends AsyncDisposable {
  readonly file: string | null;
}

const off: MetricsHandle = { file: null, [Symbol.asyncDispose]: async () => {} };

/**
 * OpenTelemetry metrics of this process (the online learner's, meter `tfgrpo.online`) to a JSON-lines file, when
 * `TFGRPO_METRICS_FILE` (or `file`) names one. Without a file the API's meter stays a no-op and the SDK is never
 * loaded (metrics-sdk.ts, by a dynamic import, as tracing does).
 */
export async function startMetrics(
  options: { file?: string | null; env?: NodeJS.ProcessEnv } = {},
): Promise<MetricsHandle> {
  const env = options.env ?? process.env;
  const file = env.TFGRPO_METRICS_FILE ? path.resolve(env.TFGRPO_METRICS_FILE) : (options.file ?? null);
  if (file === null) return off;
  const { startMetricsSdk } = await import("./metrics-sdk.js");
  return startMetricsSdk(file, env);
}
