import path from "node:path";
import { TfgrpoError } from "@tfgrpo/protocol";
import type { OtlpProtocol, TracingSdk } from "./tracing-sdk.js";

export interface StartTracingOptions {
  /** `service.name` of this process's spans: `tfgrpo-runner`, `tfgrpo-actor`... */
  serviceName: string;
  /** The local JSON-lines file (the run's trace), or null for none. */
  jsonlFile?: string | null;
  /** `--no-trace`: nothing is traced, whatever the environment says. */
  disabled?: boolean;
  /** Where a problem writing the local file is reported (once); default stderr. */
  log?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

export interface Tracing extends AsyncDisposable {
  readonly enabled: boolean;
  /** Where this process's spans go, for one line at start ("trace: traces/run.jsonl, OTLP http/protobuf"). */
  readonly destinations: string[];
  flush(): Promise<void>;
}

const off: Tracing = {
  enabled: false,
  destinations: [],
  flush: async () => {},
  [Symbol.asyncDispose]: async () => {},
};

/**
 * Turns tracing on for this process when it has somewhere to send spans: the local JSON-lines file (learn and eval
 * write one per run by default; any command with TFGRPO_TRACE_FILE), and OTLP over HTTP when the standard
 * OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set (protocol from
 * OTEL_EXPORTER_OTLP_TRACES_PROTOCOL / OTEL_EXPORTER_OTLP_PROTOCOL, `http/protobuf` by default; headers from
 * OTEL_EXPORTER_OTLP_HEADERS). OTEL_SDK_DISABLED=true, TFGRPO_TRACE=off or `--no-trace` turn it off. Off, the SDK
 * is never imported and every span is the API's no-op.
 */
export async function startTracing(options: StartTracingOptions): Promise<Tracing> {
  const env = options.env ?? process.env;
  if (options.disabled || isTrue(env.OTEL_SDK_DISABLED) || env.TFGRPO_TRACE?.toLowerCase() === "off")
    return off;
  const jsonlFile = env.TFGRPO_TRACE_FILE ? path.resolve(env.TFGRPO_TRACE_FILE) : (options.jsonlFile ?? null);
  const otlp = otlpProtocol(env);
  if (jsonlFile === null && otlp === null) return off;
  const { registerTracingSdk } = await import("./tracing-sdk.js");
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const sdk: TracingSdk = await registerTracingSdk({
    serviceName: options.serviceName,
    jsonlFile,
    otlp,
    onError: (message) => log(`tracing: ${message}`),
  });
  const destinations = [...(jsonlFile ? [jsonlFile] : []), ...(otlp ? [`OTLP ${otlp}`] : [])];
  return {
    enabled: true,
    destinations,
    // An exporter that cannot deliver (a collector down, a full disk) has said so once; it never fails the run.
    flush: () => sdk.flush().catch(() => {}),
    [Symbol.asyncDispose]: () => sdk.shutdown().catch(() => {}),
  };
}

function otlpProtocol(env: NodeJS.ProcessEnv): OtlpProtocol | null {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? "otlp").split(",").map((name) => name.trim().toLowerCase());
  if (!endpoint || !exporters.includes("otlp")) return null;
  const protocol = (
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ||
    env.OTEL_EXPORTER_OTLP_PROTOCOL ||
    "http/protobuf"
  )
    .trim()
    .toLowerCase();
  if (protocol === "http/json" || protocol === "http/protobuf") return protocol;
  throw new TfgrpoError(
    "invalid_config",
    `OTEL_EXPORTER_OTLP_PROTOCOL=${protocol}: tfgrpo exports OTLP over HTTP only (http/json or http/protobuf)`,
    { details: { field: "OTEL_EXPORTER_OTLP_PROTOCOL" } },
  );
}

function isTrue(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === "true";
}

/** The local trace file of a run: `traces/<run>.jsonl` beside the database (like `reports/`). */
export function traceFileFor(databaseDirectory: string, runId: string): string {
  return path.join(databaseDirectory, "traces", `${runId}.jsonl`);
}
