import type { Fault } from "../faults.js";
import type { SimCallKind } from "../sim-model.js";

export interface SimServerStats {
  requests: number;
  byKind: Partial<Record<SimCallKind | "embeddings" | "models" | "corpus", number>>;
  faults: Partial<Record<Fault["kind"], number>>;
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
}

export type SimRequestKind = keyof SimServerStats["byKind"];

export function createServerStats(): SimServerStats {
  return {
    requests: 0,
    byKind: {},
    faults: {},
    promptTokens: 0,
    cachedTokens: 0,
    completionTokens: 0,
  };
}
