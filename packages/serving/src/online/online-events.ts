import type { GateDecision } from "@tfgrpo/protocol";
import type { OnlineDecisionKind } from "./learner-snapshot.js";
import type { TriggerReason } from "./reflection-trigger.js";

/** What online learning did, in order, with its numbers; `at` is the count of outcomes observed so far. */
export type OnlineEvent =
  | {
      type: "reflection";
      id: string;
      at: number;
      reason: TriggerReason;
      /** Success rate of the trigger's window when it fired (null before the window filled). */
      windowRate: number | null;
      groups: number;
      differences: number;
      proposals: number;
      /** This reflection's proposals held for the first reflection after the canary out is decided (it wrote none). */
      held: number;
      /** Proposals of reflections made while a canary ran, consolidated with this one's. */
      fromHeld: number;
      /** The proposed version the curator wrote, or null when nothing changed. */
      version: number | null;
      /** The lifecycle version committed first (entries moved on their live credit), if any moved. */
      lifecycle: { version: number; moves: number } | null;
      notes: string[];
    }
  | { type: "canary-start"; at: number; version: number; parent: number | null; share: number }
  | {
      type: "gate";
      /** Which decision: the sequential test (gate), or an abandoned, voided or inconclusive canary. */
      kind: OnlineDecisionKind;
      at: number;
      version: number;
      headVersion: number | null;
      /** As stored on the version record. */
      decision: GateDecision;
    }
  | {
      type: "rollback";
      at: number;
      /** A promoted version undone on probation (a canary is stopped by its sequential test: a gate event). */
      stage: "head";
      from: number;
      /** The version serving after the rollback (null: the empty library). */
      to: number | null;
      /** The committed version that restores `to` (head rollbacks only). */
      restoredAs: number | null;
      servedRate: number;
      referenceRate: number;
      margin: number;
      window: number;
    };
