import { copyRetailDb, type RetailDb } from "../retail-db.js";
import type { GoldAction } from "../retail-task.js";
import { callRetailTool } from "../tools/call-retail-tool.js";

export interface GoldReplay {
  state: RetailDb;
  /** Gold calls the tools refused (the data's own inconsistencies; none in τ²-bench retail as shipped). */
  refused: { name: string; error: string }[];
}

/** The gold state: a fresh copy of the initial database after the gold calls, in order. */
export function replayGold(initial: RetailDb, actions: readonly GoldAction[]): GoldReplay {
  const state = copyRetailDb(initial);
  const refused: GoldReplay["refused"] = [];
  for (const action of actions) {
    const outcome = callRetailTool(state, action.name, action.arguments);
    if (!outcome.ok) refused.push({ name: action.name, error: outcome.text });
  }
  return { state, refused };
}
