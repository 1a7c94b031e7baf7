import { TfgrpoError } from "@tfgrpo/protocol";
import { pick, unitFrom } from "./hash.js";

export interface LatencyDistribution {
  meanMs: number;
  /** Standard deviation of a roughly normal spread around the mean (never below zero). */
  jitterMs?: number;
}

export type FaultKind =
  | "latency"
  | "rateLimit"
  | "serverError"
  | "hang"
  | "malformedJson"
  | "garbledJson"
  | "truncated";
export const faultKinds: readonly FaultKind[] = [
  "latency",
  "rateLimit",
  "serverError",
  "hang",
  "malformedJson",
  "garbledJson",
  "truncated",
];

export interface FaultConfig {
  /** Share of requests (0..1) that get a fault. */
  rate: number;
  /** Which faults may be chosen (all when absent), with their settings. */
  kinds?: {
    latency?: LatencyDistribution;
    /** 429 with Retry-After (seconds, rounded up) and retry-after-ms. */
    rateLimit?: { retryAfterMs?: number } | true;
    /** 500 with an OpenAI-style error body. */
    serverError?: true;
    /** No answer until the client gives up (or `maxMs`, then the socket is closed). */
    hang?: { maxMs?: number } | true;
    /** Structured answers with broken JSON; tool calls with broken arguments (a repair can often recover them). */
    malformedJson?: true;
    /** Structured answers and tool-call arguments that are not JSON at all (nothing can recover them). */
    garbledJson?: true;
    /** Content cut in the middle, finish_reason "length". */
    truncated?: true;
  };
  /** Fault seed (defaults to the server seed). */
  seed?: number;
}

export type Fault =
  | { kind: "latency"; delayMs: number }
  | { kind: "rateLimit"; retryAfterMs: number }
  | { kind: "serverError" }
  | { kind: "hang"; maxMs: number | null }
  | { kind: "malformedJson" }
  | { kind: "garbledJson" }
  | { kind: "truncated" };

const aliases: Record<string, FaultKind> = {
  latency: "latency",
  slow: "latency",
  "429": "rateLimit",
  ratelimit: "rateLimit",
  "rate-limit": "rateLimit",
  "500": "serverError",
  "5xx": "serverError",
  servererror: "serverError",
  "server-error": "serverError",
  hang: "hang",
  timeout: "hang",
  malformed: "malformedJson",
  malformedjson: "malformedJson",
  "malformed-json": "malformedJson",
  garbled: "garbledJson",
  garbledjson: "garbledJson",
  "garbled-json": "garbledJson",
  truncated: "truncated",
  truncate: "truncated",
};

function invalid(spec: string, problem: string): TfgrpoError {
  return new TfgrpoError("invalid_config", `--faults "${spec}": ${problem}`, {
    details: { field: "faults", spec },
  });
}

function numberValue(spec: string, key: string, value: string | undefined): number {
  const n = Number(value);
  if (value === undefined || value === "" || !Number.isFinite(n) || n < 0)
    throw invalid(spec, `${key} needs a non-negative number`);
  return n;
}

/**
 * Parses the CLI form `rate=0.2,kinds=429,500,hang,malformed,truncated,latency=50` (bare words after `kinds=`
 * continue the list; `latency=MS` also sets the latency mean). Other keys: `seed=N`, `jitter=MS`,
 * `retryAfterMs=MS`, `hangMs=MS`.
 */
export function parseFaultSpec(spec: string): FaultConfig {
  const config: FaultConfig = { rate: 0 };
  const kinds: NonNullable<FaultConfig["kinds"]> = {};
  let rateSet = false;
  let kindsListed = false;
  let latency: LatencyDistribution | undefined;
  let retryAfterMs: number | undefined;
  let hangMs: number | undefined;
  let jitter: number | undefined;
  const enable = (name: string, value?: string) => {
    const kind = aliases[name.toLowerCase()];
    if (!kind)
      throw invalid(spec, `unknown fault kind "${name}" (known: ${Object.keys(aliases).join(", ")})`);
    kindsListed = true;
    if (kind === "latency")
      latency = { meanMs: value === undefined ? 200 : numberValue(spec, "latency", value) };
    else if (kind === "rateLimit") kinds.rateLimit = true;
    else if (kind === "hang") kinds.hang = true;
    else kinds[kind] = true;
  };
  for (const raw of spec
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean)) {
    const [key, value] = raw.includes("=")
      ? [raw.slice(0, raw.indexOf("=")), raw.slice(raw.indexOf("=") + 1)]
      : [raw, undefined];
    switch (key.toLowerCase()) {
      case "rate": {
        const rate = numberValue(spec, "rate", value);
        if (rate > 1) throw invalid(spec, "rate must be between 0 and 1");
        config.rate = rate;
        rateSet = true;
        break;
      }
      case "kinds":
        // "kinds=latency=50": the first kind may carry its own value.
        if (value?.includes("="))
          enable(value.slice(0, value.indexOf("=")), value.slice(value.indexOf("=") + 1));
        else if (value) enable(value);
        break;
      case "seed":
        config.seed = numberValue(spec, "seed", value);
        break;
      case "jitter":
      case "jitterms":
        jitter = numberValue(spec, "jitter", value);
        break;
      case "retryafterms":
        retryAfterMs = numberValue(spec, "retryAfterMs", value);
        break;
      case "retryafter":
        retryAfterMs = numberValue(spec, "retryAfter", value) * 1000;
        break;
      case "hangms":
        hangMs = numberValue(spec, "hangMs", value);
        break;
      default:
        enable(key, value);
    }
  }
  if (!rateSet) throw invalid(spec, "rate=<0..1> is required");
  if (latency) kinds.latency = { ...latency, jitterMs: jitter ?? latency.meanMs / 2 };
  if (retryAfterMs !== undefined) kinds.rateLimit = { retryAfterMs };
  if (hangMs !== undefined) kinds.hang = { maxMs: hangMs };
  if (kindsListed || Object.keys(kinds).length > 0) config.kinds = kinds;
  return config;
}

/** A latency draw from a roughly normal distribution (sum of three uniforms), clamped at zero. */
export function drawLatency(distribution: LatencyDistribution, ...key: (string | number)[]): number {
  const jitter = distribution.jitterMs ?? 0;
  const sum = unitFrom("lat1", ...key) + unitFrom("lat2", ...key) + unitFrom("lat3", ...key);
  return Math.max(0, Math.round(distribution.meanMs + (jitter * (sum - 1.5)) / 0.5));
}

export interface FaultPlan {
  /** The fault for a request (by a key naming its content), or null. Repeats of one request draw afresh. */
  choose(requestKey: string): Fault | null;
}

export function createFaultPlan(config: FaultConfig | undefined, serverSeed: number): FaultPlan {
  const occurrences = new Map<string, number>();
  if (!config || config.rate <= 0) return { choose: () => null };
  const seed = config.seed ?? serverSeed;
  const kinds = config.kinds ?? {
    latency: { meanMs: 200, jitterMs: 100 },
    rateLimit: true,
    serverError: true,
    hang: true,
    malformedJson: true,
    truncated: true,
  };
  const enabled = faultKinds.filter((kind) => kinds[kind] !== undefined);
  return {
    choose(requestKey) {
      // The n-th sending of the same request gets its own draw: a retried request is not doomed to fail again,
      // and the result does not depend on how concurrent requests interleave.
      const occurrence = occurrences.get(requestKey) ?? 0;
      occurrences.set(requestKey, occurrence + 1);
      if (occurrences.size > 200_000) occurrences.clear();
      if (enabled.length === 0 || unitFrom("fault", seed, requestKey, occurrence) >= config.rate) return null;
      const kind = pick(enabled, unitFrom("fault-kind", seed, requestKey, occurrence));
      switch (kind) {
        case "latency":
          return { kind, delayMs: drawLatency(kinds.latency!, seed, requestKey, occurrence) };
        case "rateLimit": {
          const setting = kinds.rateLimit;
          return {
            kind,
            retryAfterMs: setting === true || setting === undefined ? 1000 : (setting.retryAfterMs ?? 1000),
          };
        }
        case "hang": {
          const setting = kinds.hang;
          return { kind, maxMs: setting === true || setting === undefined ? null : (setting.maxMs ?? null) };
        }
        default:
          return { kind } as Fault;
      }
    },
  };
}
