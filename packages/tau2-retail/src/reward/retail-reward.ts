import type { RetailDb } from "../retail-db.js";
import type { RetailGold } from "../retail-task.js";
import { stateHash } from "./canonical-json.js";
import { replayGold } from "./gold-state.js";

export interface RetailRewardInput {
  /** The database every attempt started from (db.json). */
  initial: RetailDb;
  gold: RetailGold;
  /** The attempt's final database (the environment's state at the end). */
  final: unknown;
  /** What the agent said to the user, message by message. */
  agentMessages: readonly string[];
}

export interface RetailRewardResult {
  /** 1 when the database matches the gold state and every fact was communicated, else 0. */
  reward: 0 | 1;
  dbMatch: boolean;
  /** communicate_info strings the agent never told the user. */
  missingInfo: string[];
  goldHash: string;
  finalHash: string;
}

/** τ²'s test for a communicated fact: the string, case-folded, inside one agent message with its commas removed. */
export function communicated(info: string, agentMessages: readonly string[]): boolean {
  const wanted = info.toLowerCase();
  return agentMessages.some((message) => message.toLowerCase().replace(/,/g, "").includes(wanted));
}

/**
 * Memoises gold states by (initial database object, gold calls): G attempts of a task share one replay.
 * Bounded: the oldest entries go first.
 */
export function createRetailReward(options: { cacheSize?: number } = {}) {
  const cacheSize = options.cacheSize ?? 256;
  const hashes = new WeakMap<RetailDb, Map<string, string>>();
  const goldHashOf = (initial: RetailDb, gold: RetailGold) => {
    let byGold = hashes.get(initial);
    if (!byGold) {
      byGold = new Map();
      hashes.set(initial, byGold);
    }
    const key = JSON.stringify(gold.actions);
    let hash = byGold.get(key);
    if (hash === undefined) {
      hash = stateHash(replayGold(initial, gold.actions).state);
      if (byGold.size >= cacheSize) byGold.delete(byGold.keys().next().value!);
      byGold.set(key, hash);
    }
    return hash;
  };
  return (input: RetailRewardInput): RetailRewardResult => {
    const goldHash = goldHashOf(input.initial, input.gold);
    const finalHash = stateHash(input.final);
    const dbMatch = goldHash === finalHash;
    const missingInfo = input.gold.communicate_info.filter(
      (info) => !communicated(info, input.agentMessages),
    );
    return { reward: dbMatch && missingInfo.length === 0 ? 1 : 0, dbMatch, missingInfo, goldHash, finalHash };
  };
}
