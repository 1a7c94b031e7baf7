import type { OnlineConfig } from "./online-config.js";

export type TriggerReason = "batch" | "success-drop";

export interface TriggerFiring {
  reason: TriggerReason;
  /** Outcomes since the last reflection (this one included). */
  sinceLast: number;
  /** Success rate of the sliding window when it fired (null before the window is full). */
  windowRate: number | null;
  windowSize: number;
}

export interface ReflectionTrigger {
  /** One reported outcome; returns a firing when a reflection is due. The caller reflects, then calls `reflected()`. */
  observe(success: boolean): TriggerFiring | null;
  /** A reflection ran (or was attempted): counting starts again. */
  reflected(): void;
  /** Success rate of the last `window` outcomes, or null while fewer have arrived. */
  windowRate(): number | null;
  /** What it holds (the window, the count since the last reflection), for the learner's durable state. */
  snapshot(): TriggerState;
}

export interface TriggerState {
  window: boolean[];
  sinceLast: number;
  pending: boolean;
}

/**
 * When to reflect (seed 002 §3.2): every B new outcomes, for throughput, or at once when the success rate of the
 * last W outcomes falls below a threshold, for reaction speed. The drop rule waits for a full window and, after a
 * reflection, for `cooldown` new outcomes, so one bad stretch does not start a reflection per outcome.
 */
export function createReflectionTrigger(
  config: OnlineConfig["trigger"],
  restored?: TriggerState,
): ReflectionTrigger {
  const window: boolean[] = restored ? restored.window.slice(-config.window) : [];
  let sinceLast = restored?.sinceLast ?? 0;
  let pending = restored?.pending ?? false;

  const windowRate = () =>
    window.length < config.window ? null : window.filter(Boolean).length / window.length;

  return {
    observe(success) {
      window.push(success);
      if (window.length > config.window) window.shift();
      sinceLast++;
      // A firing the caller has not acted on yet is not repeated.
      if (pending) return null;
      const rate = windowRate();
      let reason: TriggerReason | null = null;
      if (rate !== null && rate < config.dropBelow && sinceLast >= Math.max(1, config.cooldown))
        reason = "success-drop";
      else if (sinceLast >= config.batchSize) reason = "batch";
      if (reason === null) return null;
      pending = true;
      return { reason, sinceLast, windowRate: rate, windowSize: window.length };
    },
    reflected() {
      pending = false;
      sinceLast = 0;
    },
    windowRate,
    snapshot: () => ({ window: [...window], sinceLast, pending }),
  };
}
