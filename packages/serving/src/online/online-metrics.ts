import { type Meter, metrics } from "@opentelemetry/api";
import type { OnlineEvent } from "./online-events.js";
import type { OnlineLearner } from "./online-learner-api.js";

/** The meter the online learner reports on (beside the traces); a no-op until a MeterProvider is registered. */
export const onlineMeterName = "tfgrpo.online";

export interface OnlineMetrics {
  /** One outcome learned from. */
  outcome(success: boolean): void;
  /** What the learner did (reflections, decisions). */
  event(event: OnlineEvent): void;
  /** The learner whose state the gauges read (null: none holds the lease here). */
  watch(learner: OnlineLearner | null): void;
}

/**
 * OpenTelemetry metrics of one domain's learner: counters of outcomes (by success), reflections and decisions (by
 * kind and decision), and gauges of the trigger window's success rate, the canary's outcome counts (by arm) and the
 * cursor. Every instrument carries the domain.
 */
export function createOnlineMetrics(
  domain: string,
  meter: Meter = metrics.getMeter(onlineMeterName),
): OnlineMetrics {
  const attributes = { domain };
  const outcomes = meter.createCounter("tfgrpo.online.outcomes", {
    description: "Outcomes the learner learned from",
  });
  const reflections = meter.createCounter("tfgrpo.online.reflections", {
    description: "Online reflections run",
  });
  const decisions = meter.createCounter("tfgrpo.online.decisions", {
    description: "Decisions on versions: gate commit/reject/inconclusive, rollbacks",
  });
  const windowSuccess = meter.createObservableGauge("tfgrpo.online.window_success", {
    description: "Success rate of the trigger's sliding window",
  });
  const canaryOutcomes = meter.createObservableGauge("tfgrpo.online.canary_outcomes", {
    description: "Outcomes of the canary so far (arm canary) and of its parent meanwhile (arm head)",
  });
  const cursor = meter.createObservableGauge("tfgrpo.online.cursor", {
    description: "The outcome sequence number the learner has learned up to",
  });
  let watched: OnlineLearner | null = null;
  meter.addBatchObservableCallback(
    (result) => {
      if (watched === null) return;
      const state = watched.state();
      if (state.windowRate !== null) result.observe(windowSuccess, state.windowRate, attributes);
      result.observe(cursor, state.cursor, attributes);
      const canary = watched.snapshot().canary;
      result.observe(canaryOutcomes, canary?.outcomes ?? 0, { ...attributes, arm: "canary" });
      result.observe(canaryOutcomes, canary?.headOutcomes ?? 0, { ...attributes, arm: "head" });
    },
    [windowSuccess, canaryOutcomes, cursor],
  );
  return {
    outcome(success) {
      outcomes.add(1, { ...attributes, success });
    },
    event(event) {
      if (event.type === "reflection") reflections.add(1, { ...attributes, reason: event.reason });
      else if (event.type === "gate")
        decisions.add(1, {
          ...attributes,
          kind: event.kind,
          decision: event.decision.decision,
        });
      else if (event.type === "rollback")
        decisions.add(1, { ...attributes, kind: "rollback", decision: event.stage });
    },
    watch(learner) {
      watched = learner;
    },
  };
}
