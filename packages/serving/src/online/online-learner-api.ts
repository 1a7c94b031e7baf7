import type { CuratorConfigInput } from "@tfgrpo/curator";
import type { Models } from "@tfgrpo/models";
import type { Bus } from "@tfgrpo/protocol";
import type { LibraryStore } from "@tfgrpo/store";
import type { OnlineLearnerSnapshot } from "./learner-snapshot.js";
import type { OnlineConfig, OnlineConfigInput } from "./online-config.js";
import type { OnlineEvent } from "./online-events.js";
import type { OnlineOutcome, SummarizeOutcome } from "./online-outcome.js";

export interface CreateOnlineLearnerOptions {
  domain: string;
  /** Recorded on every version and decision this learner writes. */
  runId: string;
  /** Read by the learner (heads, versions); every write goes through the curator on `bus`. */
  store: LibraryStore;
  models: Pick<Models, "structured" | "embed">;
  /** Where the curator role answers (as offline). Default: an in-process Bus with a curator over `store`. */
  bus?: Bus;
  config?: OnlineConfigInput;
  /** The in-process curator's settings (consolidation, conflicts, lifecycle) when no `bus` is given. */
  curator?: CuratorConfigInput;
  summarize?: SummarizeOutcome;
  /** Marks the outcomes a reflection used (the outcome store's `markConsumed`). */
  markConsumed?: (domain: string, selectionIds: readonly string[], reflectionId: string) => Promise<unknown>;
  /** Seeds the canary draw. */
  seed?: number;
  onEvent?: (event: OnlineEvent) => void;
  /** The clock of the canary deadline. */
  now?: () => Date;
  /** Events kept in `events` (the oldest are dropped beyond it). Default 1,000. */
  maxEvents?: number;
}

/** What a resumed learner re-reads from the outcome store (outcomes up to the snapshot's cursor). */
export interface OnlineLearnerHistory {
  /** Outcomes of the canary version since it started. */
  canary: OnlineOutcome[];
  /** Outcomes of the canary's parent since it started. */
  head: OnlineOutcome[];
  /** The most recent outcomes, for the next reflection's pool. */
  pool: OnlineOutcome[];
}

export interface OnlineLearnerState {
  head: number | null;
  canary: { version: number; parent: number | null; outcomes: number; share: number } | null;
  observed: number;
  reflections: number;
  windowRate: number | null;
  cursor: number;
}

export interface OnlineLearner {
  /** The settings in force (`reconfigure` replaces them). */
  readonly config: OnlineConfig;
  /** Reads the head from the store; call once before serving (or `resume` instead). */
  start(): Promise<void>;
  /**
   * Continues from a durable snapshot (a restart or a takeover): the cursor, the trigger's window, the probation and
   * the canary, whose outcomes so far come from `history`. A canary that cannot go on (its version is no longer
   * proposed, or its parent is no longer the head) is decided as abandoned; so is every other version left
   * `proposed` (a learner that stopped between writing it and starting its canary). Returns the events.
   */
  resume(snapshot: OnlineLearnerSnapshot | null, history: OnlineLearnerHistory): Promise<OnlineEvent[]>;
  /** The durable state now (what the lease holder writes to the store). */
  snapshot(): OnlineLearnerSnapshot;
  /** Checks the canary's deadline without an outcome (the learner loop calls it when traffic stops). Serialized. */
  tick(): Promise<OnlineEvent[]>;
  /**
   * The session ends (`online --tasks` ran out of tasks): a canary the sequential test has not decided is decided
   * inconclusive now, with its evidence, so no version is left proposed. Serialized.
   */
  finish(): Promise<OnlineEvent[]>;
  /** New settings (a re-read settings file); they apply from the next outcome on. */
  reconfigure(config: OnlineConfigInput): void;
  /** Which version serves the next task: the canary for its share of traffic, else the head. */
  route(): { version: number | null; arm: "head" | "canary" };
  /** One reported outcome: probation, trigger, reflection and the canary's test, in that order. Serialized. */
  observe(outcome: OnlineOutcome): Promise<OnlineEvent[]>;
  state(): OnlineLearnerState;
  readonly events: readonly OnlineEvent[];
}
