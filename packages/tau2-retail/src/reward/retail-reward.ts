import type { RetailDb } from "../retail-db.js";
import type { RetailGold } from "../retail-task.js";
import { sameJson } from "./canonical-json.js";
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
}

/** τ²'s test for a communicated fact: the string, case-folded, inside one agent message with its commas removed. */
export function communicated(info: string, agentMessages: readonly string[]): boolean {
  const wanted = info.toLowerCase();
  return agentMessages.some((message) => message.toLowerCase().replace(/,/g, "").includes(wanted));
}

/**
 * Memoises gold states by (initial database object, gold calls): G attempts of a task share one replay (a
 * copy-on-write state: only the records the gold calls wrote are its own). Bounded: the oldest entries go first.
 */
export function createRetailReward(options: { cacheSize?: number } = {}) {
  const cacheSize = options.cacheSize ?? 256;
  const states = new WeakMap<RetailDb, Map<string, RetailDb>>();
  const goldStateOf = (initial: RetailDb, gold: RetailGold) => {
    let byGold = states.get(initial);
    if (!byGold) {
      byGold = new Map();
      states.set(initial, byGold);
    }
    const key = JSON.stringify(gold.actions);
    let state = byGold.get(key);
    if (state === undefined) {
      state = replayGold(initial, gold.actions).state;
      if (byGold.size >= cacheSize) byGold.delete(byGold.keys().next().value!);
      byGold.set(key, state);
    }
    return state;
  };
  return (input: RetailRewardInput): RetailRewardResult => {
    const dbMatch = sameJson(goldStateOf(input.initial, input.gold), input.final);
    const missingInfo = input.gold.communicate_info.filter(
      (info) => !communicated(info, input.agentMessages),
    );
    return { reward: dbMatch && missingInfo.length === 0 ? 1 : 0, dbMatch, missingInfo };
  };
}
