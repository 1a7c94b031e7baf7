import { TfgrpoError } from "@tfgrpo/protocol";

/** Requests per second a client may sustain, and how many it may send at once after a quiet spell. */
export interface RateLimitSettings {
  /** Sustained requests per second per client; 0 turns the limit off. */
  perSecond: number;
  /** Bucket size: the most requests a client may send in a burst (at least 1). */
  burst: number;
}

/**
 * Defaults for both the MCP server and the library role on the Bus. An agent makes two calls per task (get the
 * experiences, report the outcome) and a task takes a model call or several (seconds), so a client running 20 agents
 * at once makes about 10 calls per second; 100 leaves room for a fast test harness on the simulated world, and a
 * flood (a thousand and more a second, measured) is still cut to a tenth.
 */
export const defaultRateLimit: RateLimitSettings = { perSecond: 100, burst: 200 };

export type RateDecision = { ok: true } | { ok: false; retryAfterMs: number };

export interface RateLimiter {
  readonly settings: RateLimitSettings;
  /** Takes one token from `client`'s bucket, or says how long until one is there. */
  take(client: string): RateDecision;
  /** Buckets held (bounded by `maxClients`). */
  readonly size: number;
}

export interface CreateRateLimiterOptions extends Partial<RateLimitSettings> {
  /** Buckets kept at most; full buckets (clients quiet long enough) go first, then the oldest. Default 10,000. */
  maxClients?: number;
  now?: () => number;
}

/**
 * A token bucket per client: `burst` tokens, refilled at `perSecond`. Deciding is O(1) and allocates nothing but a
 * client's first bucket, so a flooding client's refused requests cost the server next to nothing and the other
 * clients' requests are not held up behind them.
 */
export function createRateLimiter(options: CreateRateLimiterOptions = {}): RateLimiter {
  const settings = checkRateLimit({
    perSecond: options.perSecond ?? defaultRateLimit.perSecond,
    burst: options.burst ?? defaultRateLimit.burst,
  });
  const now = options.now ?? (() => performance.now());
  const maxClients = options.maxClients ?? 10_000;
  const buckets = new Map<string, { tokens: number; at: number }>();

  const refill = (bucket: { tokens: number; at: number }, time: number) => {
    bucket.tokens = Math.min(
      settings.burst,
      bucket.tokens + ((time - bucket.at) / 1000) * settings.perSecond,
    );
    bucket.at = time;
  };

  const evict = (time: number) => {
    for (const [client, bucket] of buckets) {
      refill(bucket, time);
      if (bucket.tokens >= settings.burst) buckets.delete(client);
    }
    // Still too many (all active): the oldest go; a client evicted mid-flood starts again with a full bucket, once.
    for (const client of buckets.keys()) {
      if (buckets.size < maxClients) break;
      buckets.delete(client);
    }
  };

  return {
    settings,
    get size() {
      return buckets.size;
    },
    take(client) {
      if (settings.perSecond === 0) return { ok: true };
      const time = now();
      let bucket = buckets.get(client);
      if (!bucket) {
        if (buckets.size >= maxClients) evict(time);
        bucket = { tokens: settings.burst, at: time };
        buckets.set(client, bucket);
      } else refill(bucket, time);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { ok: true };
      }
      return { ok: false, retryAfterMs: Math.ceil(((1 - bucket.tokens) / settings.perSecond) * 1000) };
    },
  };
}

/** Settings checked once, where they are given: a bad one names itself. */
export function checkRateLimit(settings: RateLimitSettings): RateLimitSettings {
  if (!Number.isFinite(settings.perSecond) || settings.perSecond < 0) {
    throw new TfgrpoError(
      "invalid_config",
      `rate limit: requests per second must be >= 0 (0: off), got ${settings.perSecond}`,
    );
  }
  if (!Number.isInteger(settings.burst) || settings.burst < 1) {
    throw new TfgrpoError(
      "invalid_config",
      `rate limit: burst must be a whole number >= 1, got ${settings.burst}`,
    );
  }
  return settings;
}

/** The one wording of a refusal, over HTTP and on the Bus: which limit, whose, and when to come back. */
export function rateLimitMessage(client: string, settings: RateLimitSettings, retryAfterMs: number): string {
  return (
    `rate limit exceeded for client ${client}: at most ${settings.perSecond} requests per second ` +
    `(burst ${settings.burst}); retry after ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s`
  );
}
