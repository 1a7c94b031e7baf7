import { describe, expect, it } from "vitest";
import { parseClientTokens } from "./client-tokens.js";
import { createRateLimiter, rateLimitMessage } from "./rate-limit.js";

describe("createRateLimiter", () => {
  it("lets a client burst, then refills at its rate, each client on its own bucket", () => {
    let now = 0;
    const limiter = createRateLimiter({ perSecond: 4, burst: 2, now: () => now });
    expect([limiter.take("a"), limiter.take("a"), limiter.take("a")]).toEqual([
      { ok: true },
      { ok: true },
      { ok: false, retryAfterMs: 250 },
    ]);
    expect(limiter.take("b")).toEqual({ ok: true });
    now += 250;
    expect(limiter.take("a")).toEqual({ ok: true });
    expect(limiter.take("a")).toMatchObject({ ok: false });
    now += 10_000;
    expect([limiter.take("a"), limiter.take("a"), limiter.take("a").ok]).toEqual([
      { ok: true },
      { ok: true },
      false,
    ]);
  });

  it("keeps at most maxClients buckets, dropping full ones first; 0 per second is off", () => {
    let now = 0;
    const limiter = createRateLimiter({ perSecond: 1, burst: 1, maxClients: 3, now: () => now });
    for (const client of ["a", "b", "c"]) limiter.take(client);
    now += 5000; // all full again
    limiter.take("d");
    expect(limiter.size).toBe(1);
    const off = createRateLimiter({ perSecond: 0, burst: 1 });
    expect(Array.from({ length: 100 }, () => off.take("x").ok).every(Boolean)).toBe(true);
    expect(() => createRateLimiter({ perSecond: -1 })).toThrow(/requests per second must be >= 0/);
    expect(() => createRateLimiter({ burst: 0 })).toThrow(/burst must be a whole number >= 1/);
  });

  it("names the limit and the wait in its refusal", () => {
    expect(rateLimitMessage("alice", { perSecond: 20, burst: 40 }, 1200)).toBe(
      "rate limit exceeded for client alice: at most 20 requests per second (burst 40); retry after 2 s",
    );
  });
});

describe("parseClientTokens", () => {
  it("maps tokens to names from lines or a comma list, comments and blanks ignored", () => {
    const tokens = parseClientTokens(
      "# team\nalice:alice-token-0001\n\nbob bob-token-000002 # laptop\n",
      "f",
    );
    expect(tokens.clients).toEqual(["alice", "bob"]);
    expect(tokens.clientOf("alice-token-0001")).toBe("alice");
    expect(tokens.clientOf("bob-token-000002")).toBe("bob");
    expect(tokens.clientOf("alice-token-0002")).toBeUndefined();
    const env = parseClientTokens("a:aaaaaaaaaaaaaa, b:bbbbbbbbbbbbbb", "TFGRPO_CLIENT_TOKENS", {
      separator: ",",
    });
    expect(env.clients).toEqual(["a", "b"]);
  });

  it("refuses bad lines naming where, short tokens, a token for two clients, and an empty list", () => {
    expect(() => parseClientTokens("alice", "f")).toThrow(/^f:1: expected "name:token"$/);
    expect(() => parseClientTokens("al ice:x", "f")).toThrow(/f:1/);
    expect(() => parseClientTokens("alice:short", "f")).toThrow(
      /f:1: the token of client alice is shorter than 12/,
    );
    expect(() => parseClientTokens("a:same-token-0001\nb:same-token-0001", "f")).toThrow(
      /f:2: one token names two clients \(a, b\)/,
    );
    expect(() => parseClientTokens("# nothing\n", "f")).toThrow(/f: no client tokens/);
  });
});
