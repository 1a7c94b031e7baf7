import { TfgrpoError } from "@tfgrpo/protocol";
import type { ClientTokens } from "./client-tokens.js";
import {
  createRateLimiter,
  defaultRateLimit,
  type RateLimiter,
  type RateLimitSettings,
  rateLimitMessage,
} from "./rate-limit.js";

export interface ClientGateOptions {
  /** Token -> client name. With it, a call must carry a known token; without it, calls are anonymous. */
  clientTokens?: ClientTokens;
  /** Per-client token bucket (default `defaultRateLimit`); false or `perSecond: 0`: no limit. */
  rateLimit?: Partial<RateLimitSettings> | false;
  now?: () => number;
}

export type ClientIdentity = { ok: true; client: string | undefined } | { ok: false; message: string };

/** What every server of the library service asks of a call before the service sees it: who, and not too often. */
export interface ClientGate {
  readonly tokensRequired: boolean;
  /** The client a token names; anonymous (undefined) when no tokens are configured; refused for an unknown one. */
  identify(token: string | undefined): ClientIdentity;
  /** Takes one request from `key`'s bucket (a client name, else a connection or session). */
  admit(key: string): { ok: true } | { ok: false; retryAfterMs: number; message: string };
  readonly limiter: RateLimiter | null;
}

export function createClientGate(options: ClientGateOptions = {}): ClientGate {
  const limiter =
    options.rateLimit === false
      ? null
      : createRateLimiter({
          perSecond: options.rateLimit?.perSecond ?? defaultRateLimit.perSecond,
          burst: options.rateLimit?.burst ?? defaultRateLimit.burst,
          ...(options.now ? { now: options.now } : {}),
        });
  const tokens = options.clientTokens;
  return {
    tokensRequired: tokens !== undefined,
    limiter,
    identify(token) {
      if (!tokens) return { ok: true, client: undefined };
      if (token === undefined || token === "") {
        return { ok: false, message: "unauthorized: this server needs a client token" };
      }
      const client = tokens.clientOf(token);
      return client === undefined
        ? { ok: false, message: "unauthorized: unknown client token" }
        : { ok: true, client };
    },
    admit(key) {
      if (!limiter) return { ok: true };
      const decision = limiter.take(key);
      if (decision.ok) return decision;
      return { ...decision, message: rateLimitMessage(key, limiter.settings, decision.retryAfterMs) };
    },
  };
}

/** The gate's refusals as the errors the Bus carries back (`unauthorized`, `rate_limited` with `retryAfterMs`). */
export function admitOnBus(
  gate: ClientGate,
  token: string | undefined,
  caller: string | undefined,
  call: string,
): string | undefined {
  const identity = gate.identify(token);
  if (!identity.ok) {
    throw new TfgrpoError("unauthorized", `${call}: ${identity.message} (set clientToken in the request)`, {
      details: { call },
    });
  }
  // Anonymous calls in process (no token, no connection) are this process's own: nothing to limit them by.
  const key = identity.client ?? (caller === undefined ? undefined : `connection ${caller}`);
  if (key !== undefined) {
    const admitted = gate.admit(key);
    if (!admitted.ok) {
      throw new TfgrpoError("rate_limited", `${call}: ${admitted.message}`, {
        details: { call, retryAfterMs: admitted.retryAfterMs },
      });
    }
  }
  return identity.client;
}
