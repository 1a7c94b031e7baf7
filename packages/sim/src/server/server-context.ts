import type { PromptCache } from "../prompt-cache.js";
import type { SimModel } from "../sim-model.js";
import type { SimWorld } from "../world.js";
import type { FaultInjector } from "./fault-injector.js";
import type { SimRequestKind, SimServerStats } from "./server-stats.js";

/** What the sim server's route handlers share: one per server. */
export interface SimServerContext {
  seed: number;
  model: SimModel;
  world: SimWorld;
  faults: FaultInjector;
  cache: PromptCache;
  /** Clock for the `created` field (the only time-dependent output). */
  now: () => number;
  stats: SimServerStats;
  count(kind: SimRequestKind): void;
  /** Key of a request body for fault draws and ids, independent of the server's own address. */
  requestKey(raw: string): string;
  /** Key of a completion id: the request key and how often that request was seen. */
  completionKey(key: string): string;
  /** Base URL of the simulated web on this server (known once it listens). */
  corpusUrl(): string;
}
