import type {
  GateDecision,
  LeakageFingerprints,
  LibrarySnapshot,
  LibraryVersion,
  Operation,
  Role,
  Usage,
} from "@tfgrpo/protocol";
import type { z } from "zod";
import type { StatsDelta } from "./credit-deltas.js";

/**
 * The part of `@tfgrpo/store`'s `LibraryStore` the curator uses. Declared here structurally so the curator depends on
 * the contract, not on a backend; a real `LibraryStore` satisfies it (the runner, which passes one, checks it).
 */
export interface CuratorStore {
  getHead(domain: string): Promise<LibrarySnapshot | null>;
  getVersion(domain: string, version: number): Promise<LibrarySnapshot | null>;
  applyOperations(
    domain: string,
    ops: readonly Operation[],
    options: {
      parent: number | null;
      state: "proposed" | "committed";
      runId?: string | null;
      message?: string;
      gate?: GateDecision;
      now?: Date;
    },
  ): Promise<{ version: LibraryVersion; createdIds: string[] }>;
  setVersionState(
    domain: string,
    version: number,
    state: "committed" | "rejected",
    gate?: GateDecision,
  ): Promise<LibraryVersion>;
  updateStats(domain: string, deltas: readonly StatsDelta[]): Promise<number>;
  /**
   * Commits a version equal to `toVersion` (the store's `rollback`), refused with `conflict` when the head is not
   * `expectedHead`. Optional: only the online learner's restore needs it.
   */
  rollback?(
    domain: string,
    toVersion: number,
    options: { runId?: string | null; message?: string; expectedHead?: number | null },
  ): Promise<LibraryVersion>;
  /**
   * A run's leakage fingerprints by digest (the store's `getLeakageFingerprints`): what a consolidation request's
   * leakage check names. Optional so a library-only store (the online learner's) can still drive a curator; a curator
   * asked to check leakage without it fails saying so.
   */
  getLeakageFingerprints?(digest: string): Promise<LeakageFingerprints | null>;
}

export interface CuratorChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** The part of `@tfgrpo/models` the curator uses: structured chat for the curator role, and embeddings. */
export interface CuratorModels {
  structured<T>(
    role: Role,
    request: {
      messages: CuratorChatMessage[];
      schema: z.ZodType<T>;
      name: string;
      description?: string;
      temperature?: number;
      seed?: number;
    },
  ): Promise<{ value: T; usage: Usage; attempts: number; raw: string }>;
  embed(texts: string[]): Promise<number[][]>;
}

export interface CuratorLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: CuratorLogger = { info: () => {}, warn: () => {} };
