import { TfgrpoError } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { createRetryingFetch, type Fetch, type RetryingFetchOptions } from "./retrying-fetch.js";

type Step = Response | Error;

function scripted(steps: Step[]) {
  const calls: RequestInit[] = [];
  const fetch: Fetch = async (_input, init = {}) => {
    calls.push(init);
    const step = steps.shift();
    if (!step) throw new Error("script exhausted");
    if (step instanceof Error) throw step;
    return step;
  };
  return { fetch, calls };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

function make(steps: Step[], overrides: Partial<RetryingFetchOptions> = {}) {
  const { fetch, calls } = scripted(steps);
  const sleeps: number[] = [];
  const usages: unknown[] = [];
  const retrying = createRetryingFetch({
    fetch,
    label: "critic (m)",
    timeoutMs: 1_000,
    maxRetries: 3,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0,
    now: () => Date.parse("2025-01-01T00:00:00Z"),
    onUsage: (usage) => usages.push(usage),
    ...overrides,
  });
  const post = (init: RequestInit = {}) =>
    retrying("http://127.0.0.1:1/v1/chat/completions", { method: "POST", body: "{}", ...init });
  return { post, calls, sleeps, usages };
}

describe("createRetryingFetch", () => {
  it("honours Retry-After as seconds, as an HTTP date, and retry-after-ms", async () => {
    const { post, sleeps, usages } = make([
      json(429, {}, { "retry-after": "3" }),
      json(503, {}, { "retry-after": "Wed, 01 Jan 2025 00:00:07 GMT" }),
      json(429, {}, { "retry-after-ms": "250", "retry-after": "9" }),
      json(200, { usage: { prompt_tokens: 3 } }),
    ]);
    const response = await post();
    expect(response.status).toBe(200);
    expect(response.headers.get("x-tfgrpo-attempts")).toBe("4");
    expect(await response.json()).toEqual({ usage: { prompt_tokens: 3 } });
    expect(sleeps).toEqual([3000, 7000, 250]);
    expect(usages).toEqual([{ prompt_tokens: 3 }]);
  });

  it("caps a Retry-After hint and backs off exponentially with jitter without one", async () => {
    const { post, sleeps } = make(
      [json(429, {}, { "retry-after": "3600" }), json(500, {}), json(502, {}), json(200, {})],
      { random: () => 1, maxRetryAfterMs: 60_000, initialDelayMs: 100 },
    );
    await post();
    // 60 s cap (+10% jitter at random = 1); then 100 ms * 2^n * (0.5 + 0.5 * 1).
    expect(sleeps).toEqual([66_000, 200, 400]);
  });

  it("obeys x-should-retry, and does not retry an exhausted quota or a client error", async () => {
    const forced = make([json(400, {}, { "x-should-retry": "true" }), json(200, {})]);
    expect((await forced.post()).status).toBe(200);
    const refused = make([json(503, {}, { "x-should-retry": "false" })]);
    expect((await refused.post()).status).toBe(503);
    const quota = make([json(429, { error: { code: "insufficient_quota", message: "quota" } })]);
    const response = await quota.post();
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({ error: { code: "insufficient_quota", message: "quota" } });
    expect(quota.calls).toHaveLength(1);
    const notFound = make([json(404, {})]);
    expect((await notFound.post()).status).toBe(404);
    expect(notFound.sleeps).toEqual([]);
  });

  it("returns the last error response as is when retries run out", async () => {
    const { post, calls } = make([
      json(500, { error: { message: "a" } }),
      json(500, {}),
      json(500, {}),
      json(500, { error: { message: "last" } }),
    ]);
    const response = await post();
    expect(response.status).toBe(500);
    expect(response.headers.get("x-tfgrpo-attempts")).toBe("4");
    expect(await response.json()).toEqual({ error: { message: "last" } });
    expect(calls).toHaveLength(4);
  });

  it("retries connection errors and garbled bodies, then throws a model_error naming the cause", async () => {
    const { post, calls } = make(
      [
        new TypeError("fetch failed", {
          cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
        }),
        new Response('{"choices": [', { headers: { "content-type": "application/json" } }),
      ],
      { maxRetries: 1 },
    );
    const error = await post().catch((e) => e);
    expect(TfgrpoError.hasCode(error, "model_error")).toBe(true);
    expect(error.message).toMatch(
      /^critic \(m\): POST \/v1\/chat\/completions: malformed response body \(invalid JSON: .*\) \(2 attempts\)$/,
    );
    expect(calls).toHaveLength(2);
    const refused = make([new TypeError("fetch failed", { cause: new Error("Connect Timeout Error") })], {
      maxRetries: 0,
    });
    // Worded so the openai SDK keeps this error as the cause instead of replacing it with a bare timeout.
    await expect(refused.post()).rejects.toThrow(
      "critic (m): POST /v1/chat/completions: connection failed (fetch failed: Connect time limit Error) (1 attempt)",
    );
  });

  it("gives each attempt its own deadline", async () => {
    const hang: Fetch = (_input, init) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
      );
    let attempts = 0;
    const retrying = createRetryingFetch({
      fetch: (input, init) => (++attempts < 3 ? hang(input, init) : Promise.resolve(json(200, {}))),
      label: "actor (m)",
      timeoutMs: 20,
      maxRetries: 3,
      sleep: async () => {},
      random: () => 0,
      now: Date.now,
    });
    expect((await retrying("http://127.0.0.1:1/v1/chat/completions", { method: "POST" })).status).toBe(200);
    expect(attempts).toBe(3);
  });

  it("stops when the caller aborts, with the caller's reason, and checks beforeRequest once", async () => {
    let checks = 0;
    const controller = new AbortController();
    const { post, calls } = make([json(500, {}), json(200, {})], {
      beforeRequest: () => {
        checks++;
      },
      sleep: async () => {
        controller.abort(new Error("cancelled by run"));
      },
    });
    await expect(post({ signal: controller.signal })).rejects.toThrow("cancelled by run");
    expect(calls).toHaveLength(1);
    expect(checks).toBe(1);
    const refusing = make([json(200, {})], {
      beforeRequest: () => {
        throw new TfgrpoError("budget_exceeded", "no more");
      },
    });
    await expect(refusing.post()).rejects.toThrow("no more");
    expect(refusing.calls).toHaveLength(0);
  });

  it("does not replay a streamed request body", async () => {
    const { post, calls } = make([json(500, {}), json(200, {})]);
    const body = new ReadableStream({
      start(controller) {
        controller.close();
      },
    });
    expect((await post({ body, duplex: "half" } as RequestInit)).status).toBe(500);
    expect(calls).toHaveLength(1);
  });

  it("neither fails nor resends an answered call when recording its usage fails", async () => {
    const errors: string[] = [];
    const { post, calls } = make([json(200, { usage: { prompt_tokens: 1 } }), json(200, {})], {
      onUsage: () => {
        throw new Error("disk full");
      },
      logger: { error: (message) => errors.push(message) },
    });
    expect((await post()).status).toBe(200);
    expect(calls).toHaveLength(1);
    expect(errors).toEqual(["critic (m): recording usage failed: disk full"]);
  });

  it("reads usage from the last SSE event that carries it", async () => {
    const events = [
      'data: {"choices":[{"delta":{"content":"a"}}]}',
      'data: {"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2}}',
      "data: [DONE]",
      "",
    ].join("\n\n");
    const { post, usages } = make([
      new Response(events, { headers: { "content-type": "text/event-stream" } }),
    ]);
    const response = await post();
    expect(await response.text()).toBe(events);
    expect(usages).toEqual([{ prompt_tokens: 5, completion_tokens: 2 }]);
  });
});
