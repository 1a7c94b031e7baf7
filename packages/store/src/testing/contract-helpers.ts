import type { GateDecision, Operation } from "@tfgrpo/protocol";
import type { LibraryStore } from "../library-store.js";
import type { RunStore } from "../run-store.js";
import type { StoreLifecycle } from "../store.js";
import type { TrajectoryStore } from "../trajectory-store.js";

/** What a contract suite runs on: a fresh, set-up aggregate store that the suite closes after each test. */
export type LibraryTestStore = LibraryStore & StoreLifecycle;
export type RunTestStore = RunStore & StoreLifecycle;
export type TrajectoryTestStore = TrajectoryStore & StoreLifecycle;

const t0 = new Date("2026-01-01T00:00:00.000Z");
export const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

export const add = (text: string, extra: Partial<Extract<Operation, { op: "add" }>> = {}): Operation => ({
  op: "add",
  text,
  reason: `learned: ${text}`,
  ...extra,
});

export const gate: GateDecision = {
  decision: "commit",
  candidateScore: 0.7,
  headScore: 0.6,
  margin: 0.02,
  mode: "better-by-margin",
  tasks: 20,
  stage: "full",
  reason: "better on held-out tasks",
};

/** v1 = G0 (candidate), G1 (active), G2 (probation, scoped, in conflict group "units"), committed. */
export async function seedThreeEntries(store: LibraryStore, domain = "math") {
  return store.applyOperations(
    domain,
    [
      add("Check units before answering."),
      add("Enumerate small cases with code first.", { status: "active" }),
      add("Prefer exact fractions over floats.", {
        status: "probation",
        scope: { when: "answers are rationals", whenNot: "the task asks for decimals" },
        conflictGroup: "units",
      }),
    ],
    { parent: null, state: "committed", runId: "run-1", message: "first", now: at(1) },
  );
}
