import { createStore, type Store } from "@tfgrpo/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CanaryRun, startCanaryRun } from "./canary-run.js";
import { createDecisionWriter, type DecisionWriter } from "./decision-writer.js";
import { type LoopState, probationStep, settleCanary, stopForFutility } from "./learner-steps.js";
import { resolveOnlineConfig } from "./online-config.js";
import { createOnlineCuratorBus } from "./online-curator-bus.js";
import type { OnlineEvent } from "./online-events.js";

// The learner's steps against a real store and the real curator role on an in-process Bus: every decision is
// written by the curator, recorded once and emitted once. No model is called by these paths.
const models = {
  structured: () => Promise.reject(new Error("no model call expected")),
  embed: () => Promise.reject(new Error("no model call expected")),
};
const rollout = resolveOnlineConfig({ rollout: { rollbackWindow: 10, minReference: 10 } }).rollout;
const now = () => new Date("2026-01-01T00:00:00Z");

let store: Store;
let writer: DecisionWriter;
let events: OnlineEvent[];
let deps: Parameters<typeof settleCanary>[0];

beforeEach(async () => {
  store = await createStore(":memory:");
  const { bus, ready } = createOnlineCuratorBus({ store, models });
  await ready;
  events = [];
  writer = createDecisionWriter({
    bus,
    domain: "math",
    runId: "steps-test",
    now,
    observed: () => 7,
    emit: (event, out) => {
      events.push(event);
      out.push(event);
    },
  });
  deps = { store, domain: "math", writer, now, rollout: () => rollout };
});
afterEach(async () => {
  await store.close();
});

async function version(parent: number | null, state: "proposed" | "committed", text: string) {
  const written = await store.applyOperations(
    "math",
    [{ op: "add", text, reason: "test", status: "active" }],
    {
      parent,
      state,
    },
  );
  return written.version.version;
}
const outcomes = (successes: number, failures: number) => [
  ...Array.from({ length: successes }, () => ({ stratum: "a", success: true })),
  ...Array.from({ length: failures }, () => ({ stratum: "a", success: false })),
];
const canaryOf = (v: number, parent: number | null, canary: number[], head: number[]): CanaryRun => ({
  ...startCanaryRun(v, parent, 0, now(), rollout),
  outcomes: outcomes(canary[0]!, canary[1]!),
  headOutcomes: outcomes(head[0]!, head[1]!),
});

describe("the learner's steps, each decision through the one writer", () => {
  it("commits a canary the sequential test commits, and puts it on probation against the head's outcomes", async () => {
    const head = await version(null, "committed", "Count both ends.");
    const candidate = await version(head, "proposed", "Check the bound.");
    const state: LoopState = { head, canary: canaryOf(candidate, head, [13, 2], [5, 10]), probation: null };
    const out: OnlineEvent[] = [];
    await settleCanary(deps, state, out);
    expect(out).toMatchObject([
      { type: "gate", kind: "gate", version: candidate, decision: { decision: "commit" } },
    ]);
    expect(await store.getHeadVersion("math")).toBe(candidate);
    expect((await store.getVersionInfo("math", candidate))?.gate?.details).toMatchObject({
      rule: "sequential",
    });
    expect(state).toMatchObject({
      head: candidate,
      canary: null,
      probation: { previous: head, versions: [candidate] },
    });
    expect(state.probation!.reference).toHaveLength(15);
    expect(writer.decisions).toMatchObject([{ at: 7, kind: "gate", version: candidate, decision: "commit" }]);
  });

  it("leaves an undecided canary out with the fastest share, and decides it inconclusive when the session ends", async () => {
    const head = await version(null, "committed", "Count both ends.");
    const candidate = await version(head, "proposed", "Check the bound.");
    const state: LoopState = { head, canary: canaryOf(candidate, head, [6, 6], [6, 6]), probation: null };
    await settleCanary(deps, state, []);
    expect(state.canary?.share).toBe(0.5);
    expect(events).toEqual([]);
    await settleCanary(deps, state, [], true);
    expect(events).toMatchObject([{ kind: "inconclusive", decision: { decision: "inconclusive" } }]);
    expect(await store.getVersionInfo("math", candidate)).toMatchObject({
      state: "rejected",
      gate: { details: { rule: "session-end", canaryOutcomes: 12 } },
    });
  });

  it("abandons a decided canary whose parent is no longer the head (someone else committed meanwhile)", async () => {
    const head = await version(null, "committed", "Count both ends.");
    const candidate = await version(head, "proposed", "Check the bound.");
    const other = await version(head, "committed", "An operator's edit.");
    const state: LoopState = { head, canary: canaryOf(candidate, head, [13, 2], [5, 10]), probation: null };
    await settleCanary(deps, state, []);
    expect(events).toMatchObject([{ kind: "abandoned", decision: { details: { rule: "abandoned" } } }]);
    expect(state.head).toBe(other);
    expect((await store.getVersionInfo("math", candidate))?.state).toBe("rejected");
  });

  it("rolls a head back on probation and voids the canary measured against it: both recorded and emitted", async () => {
    const previous = await version(null, "committed", "Count both ends.");
    const promoted = await version(previous, "committed", "Check the bound.");
    const canary = await version(promoted, "proposed", "Another lesson.");
    const state: LoopState = {
      head: promoted,
      canary: canaryOf(canary, promoted, [1, 1], [1, 1]),
      probation: {
        previous,
        versions: [promoted],
        reference: outcomes(8, 2).map((o) => o.success),
        served: [],
      },
    };
    const out: OnlineEvent[] = [];
    for (let i = 0; i < 10; i++) await probationStep(deps, state, { version: promoted, success: false }, out);
    expect(out.map((e) => (e.type === "gate" ? `gate:${e.kind}` : e.type))).toEqual([
      "rollback",
      "gate:voided",
    ]);
    const rollback = out[0]!;
    if (rollback.type !== "rollback") throw new Error("unreachable");
    expect(rollback).toMatchObject({
      stage: "head",
      from: promoted,
      to: previous,
      servedRate: 0,
      referenceRate: 0.8,
    });
    const restored = await store.getVersionInfo("math", rollback.restoredAs!);
    expect(restored).toMatchObject({ state: "committed", runId: "steps-test" });
    expect(restored!.message).toMatch(/^online rollback: v\d+ succeeded on 0\.000 of its 10 tasks vs 0\.800/);
    expect(await store.getVersionInfo("math", canary)).toMatchObject({
      state: "rejected",
      gate: { details: { rule: "voided", restoredAs: rollback.restoredAs } },
    });
    expect(state).toMatchObject({ head: rollback.restoredAs, canary: null, probation: null });
    expect(writer.decisions.map((d) => d.kind)).toEqual(["rollback", "voided"]);
  });
});

describe("stopping a canary for futility when a reflection falls due", () => {
  it("stops a canary past `futilityAfter` outcomes that leans no better than the head: inconclusive, evidence kept", async () => {
    const head = await version(null, "committed", "Count both ends.");
    const candidate = await version(head, "proposed", "Check the bound.");
    // 30 canary outcomes at 20% against the head's 25%: neither bound of the test is near, and it leans worse.
    const state: LoopState = { head, canary: canaryOf(candidate, head, [6, 24], [8, 24]), probation: null };
    const out: OnlineEvent[] = [];
    expect(await stopForFutility(deps, state, out)).toBe(true);
    expect(state.canary).toBeNull();
    expect(out).toMatchObject([
      {
        type: "gate",
        kind: "inconclusive",
        version: candidate,
        decision: { decision: "inconclusive", details: { rule: "futility", canaryOutcomes: 30 } },
      },
    ]);
    expect((await store.getVersionInfo("math", candidate))?.state).toBe("rejected");
    expect(await store.getHeadVersion("math")).toBe(head);
  });

  it("lets a canary that leans better, or has had fewer outcomes, run on to its test's decision", async () => {
    const head = await version(null, "committed", "Count both ends.");
    const candidate = await version(head, "proposed", "Check the bound.");
    const leaningBetter: LoopState = {
      head,
      canary: canaryOf(candidate, head, [9, 21], [7, 25]),
      probation: null,
    };
    const early: LoopState = { head, canary: canaryOf(candidate, head, [2, 27], [8, 24]), probation: null };
    const out: OnlineEvent[] = [];
    expect(await stopForFutility(deps, leaningBetter, out)).toBe(false);
    expect(await stopForFutility(deps, early, out)).toBe(false);
    expect(out).toEqual([]);
    expect(leaningBetter.canary?.version).toBe(candidate);
    expect((await store.getVersionInfo("math", candidate))?.state).toBe("proposed");
  });
});
