import { TfgrpoError } from "@tfgrpo/protocol";
import {
  defaultRetentionPolicy,
  parseRetentionPolicy,
  type RetentionPolicy,
  type RetentionResult,
  type RetentionStore,
} from "./retention.js";

export interface RetentionSweepOptions {
  /** Over the defaults (`defaultRetentionPolicy`). */
  policy?: Partial<RetentionPolicy>;
  /** Between two full passes (`applyRetention`). Default 10 min. */
  intervalMs?: number;
  /** Between two expiry passes (selections past the report deadline marked "no report"). Default 1 min. */
  expireEveryMs?: number;
  /** After each full pass. */
  onResult?: (result: RetentionResult) => void;
  /** A failed pass (the next one runs as planned). Default: ignored. */
  onError?: (error: unknown) => void;
  now?: () => Date;
}

export interface RetentionSweep {
  /** One full pass now (after the one in flight, if any). */
  runOnce(): Promise<RetentionResult>;
  /** No new pass starts; resolves once the one in flight has ended. */
  stop(): Promise<void>;
}

/** The sweep's settings, parsed: what `TFGRPO_RETENTION` may hold beside the policy. */
export interface RetentionSweepSettings {
  enabled: boolean;
  policy: Partial<RetentionPolicy>;
  intervalMs?: number;
  expireEveryMs?: number;
}

/**
 * Keeps a store's online traffic bounded while a process serves: marks selections past the report deadline every
 * `expireEveryMs` (reading only those served since the previous cutoff) and runs `applyRetention` every
 * `intervalMs`. Passes never overlap; the timers do not keep the process alive. Several processes may sweep one
 * database: each batch locks or re-checks its rows, so nothing is aggregated twice.
 */
export function startRetentionSweep(
  store: RetentionStore,
  options: RetentionSweepOptions = {},
): RetentionSweep {
  const policy = parseRetentionPolicy(options.policy);
  const now = options.now ?? (() => new Date());
  const onError = options.onError ?? (() => {});
  let chain: Promise<unknown> = Promise.resolve();
  let stopped = false;
  /** Served-since for the next expiry: one interval of overlap behind the previous cutoff. */
  let expiredUpTo: Date | null = null;
  const expireEveryMs = options.expireEveryMs ?? 60_000;

  const queue = <T>(pass: () => Promise<T>): Promise<T> => {
    const run = chain.then(pass);
    chain = run.catch(() => {});
    return run;
  };
  const full = () =>
    queue(async () => {
      const result = await store.applyRetention(policy, now());
      options.onResult?.(result);
      return result;
    });
  const expire = () =>
    queue(async () => {
      const at = now();
      await store.expireSelections({
        deadlineMs: policy.reportDeadlineMs,
        now: at,
        ...(expiredUpTo ? { servedSince: new Date(expiredUpTo.getTime() - expireEveryMs) } : {}),
      });
      expiredUpTo = new Date(at.getTime() - policy.reportDeadlineMs);
    });

  const every = (ms: number, pass: () => Promise<unknown>) => {
    const timer = setInterval(() => {
      if (!stopped) pass().catch(onError);
    }, ms);
    timer.unref?.();
    return timer;
  };
  const timers = [every(options.intervalMs ?? 10 * 60_000, full), every(expireEveryMs, expire)];

  return {
    runOnce: full,
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await chain;
    },
  };
}

/**
 * `TFGRPO_RETENTION`: unset for the defaults, `off` for no sweep, or a JSON object of policy settings
 * (`reportDeadlineMs`, `outcomeMaxAgeDays`, `maxOutcomesPerDomain`, `keepLatestOutcomes`, `trajectoryMaxAgeDays`,
 * `unreportedMaxAgeDays`, `batchSize`) and the sweep's `intervalMs` and `expireEveryMs`.
 */
export function retentionSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): RetentionSweepSettings {
  const raw = env.TFGRPO_RETENTION?.trim();
  if (!raw) return { enabled: true, policy: {} };
  if (raw === "off") return { enabled: false, policy: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new TfgrpoError(
      "invalid_config",
      `TFGRPO_RETENTION must be "off" or a JSON object of retention settings, got ${raw.slice(0, 80)}`,
      { details: { value: raw.slice(0, 200) } },
    );
  }
  const { intervalMs, expireEveryMs, ...policy } = parsed as Record<string, unknown>;
  const known = new Set(Object.keys(defaultRetentionPolicy));
  const unknown = Object.keys(policy).filter((key) => !known.has(key));
  if (unknown.length > 0) {
    throw new TfgrpoError(
      "invalid_config",
      `TFGRPO_RETENTION: unknown setting ${unknown.join(", ")} (known: ${[...known, "intervalMs", "expireEveryMs"].join(", ")})`,
      { details: { unknown } },
    );
  }
  parseRetentionPolicy(policy as Partial<RetentionPolicy>);
  for (const [key, value] of Object.entries({ intervalMs, expireEveryMs })) {
    if (value !== undefined && (typeof value !== "number" || !(value > 0))) {
      throw new TfgrpoError("invalid_config", `TFGRPO_RETENTION: ${key} must be a positive number of ms`, {
        details: { key, value },
      });
    }
  }
  return {
    enabled: true,
    policy: policy as Partial<RetentionPolicy>,
    ...(typeof intervalMs === "number" ? { intervalMs } : {}),
    ...(typeof expireEveryMs === "number" ? { expireEveryMs } : {}),
  };
}

/**
 * The sweep a serving process runs by `TFGRPO_RETENTION` (none when it is `off`): what `tfgrpo mcp`,
 * `serve --role library` and `tfgrpo online` start beside their store. Returns the stop.
 */
export function startRetentionFromEnv(
  store: RetentionStore,
  env: NodeJS.ProcessEnv = process.env,
  onError?: (error: unknown) => void,
): () => Promise<void> {
  const settings = retentionSettingsFromEnv(env);
  if (!settings.enabled) return async () => {};
  const sweep = startRetentionSweep(store, {
    policy: settings.policy,
    ...(settings.intervalMs !== undefined ? { intervalMs: settings.intervalMs } : {}),
    ...(settings.expireEveryMs !== undefined ? { expireEveryMs: settings.expireEveryMs } : {}),
    ...(onError ? { onError } : {}),
  });
  return () => sweep.stop();
}
