import type { IncomingMessage, ServerResponse } from "node:http";
import { drawLatency, type Fault, type FaultPlan, type LatencyDistribution } from "../faults.js";
import { sendError } from "./send-json.js";
import type { SimServerStats } from "./server-stats.js";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What happens to a request before the model answers: the fault drawn for it, or the answer the fault already gave. */
export type FaultAdmission = { answered: true } | { answered: false; fault: Fault | null };

export interface FaultInjector {
  /**
   * Draws the request's fault, adds the base latency, and applies the faults that end a request before any answer
   * (rate limit, server error, hang); a latency fault waits here and lets the request through. `elapsedMs`: time the
   * request has already spent in the server (its answer computed ahead), which the base latency includes.
   */
  admit(
    key: string,
    request: IncomingMessage,
    response: ServerResponse,
    elapsedMs?: number,
  ): Promise<FaultAdmission>;
  /** Stops the timers of hanging requests (the server is closing). */
  clearTimers(): void;
}

export function createFaultInjector(options: {
  plan: FaultPlan;
  seed: number;
  latency: LatencyDistribution | undefined;
  stats: SimServerStats;
}): FaultInjector {
  const { plan, seed, latency, stats } = options;
  const pendingTimers = new Set<NodeJS.Timeout>();

  async function applyLatency(key: string, elapsedMs: number): Promise<void> {
    if (!latency || latency.meanMs <= 0) return;
    const remaining = drawLatency(latency, "base", seed, key) - elapsedMs;
    if (remaining > 0) await sleep(remaining);
  }

  /** Holds the request open: the client's timeout ends it (or maxMs, or the server closing). */
  function hang(request: IncomingMessage, response: ServerResponse, maxMs: number | null): void {
    if (maxMs !== null) {
      const timer = setTimeout(() => {
        pendingTimers.delete(timer);
        response.destroy();
      }, maxMs);
      pendingTimers.add(timer);
      request.on("close", () => {
        clearTimeout(timer);
        pendingTimers.delete(timer);
      });
    }
  }

  /** Faults that end the request before any answer; returns true when it handled the response. */
  async function preAnswerFault(
    fault: Fault | null,
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<boolean> {
    if (!fault) return false;
    stats.faults[fault.kind] = (stats.faults[fault.kind] ?? 0) + 1;
    if (fault.kind === "latency") {
      await sleep(fault.delayMs);
      return false;
    }
    if (fault.kind === "rateLimit") {
      sendError(response, 429, "Rate limit reached (simulated fault).", "rate_limit_error", {
        "retry-after": String(Math.max(0, Math.ceil(fault.retryAfterMs / 1000))),
        "retry-after-ms": String(fault.retryAfterMs),
      });
      return true;
    }
    if (fault.kind === "serverError") {
      sendError(
        response,
        500,
        "The server had an error while processing your request (simulated fault).",
        "server_error",
      );
      return true;
    }
    if (fault.kind === "hang") {
      hang(request, response, fault.maxMs);
      return true;
    }
    return false;
  }

  return {
    async admit(key, request, response, elapsedMs = 0) {
      const fault = plan.choose(key);
      await applyLatency(key, elapsedMs);
      if (await preAnswerFault(fault, request, response)) return { answered: true };
      return { answered: false, fault };
    },
    clearTimers() {
      for (const timer of pendingTimers) clearTimeout(timer);
      pendingTimers.clear();
    },
  };
}
