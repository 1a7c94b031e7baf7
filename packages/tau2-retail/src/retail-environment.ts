import { diffStates, type StateChange } from "@tfgrpo/protocol";
import { copyRetailDb, type RetailDb } from "./retail-db.js";
import { callRetailTool, type RetailToolOutcome } from "./tools/call-retail-tool.js";

/**
 * One attempt's world: a private copy of the database, reset per task. Retail tasks all start from db.json (τ²'s
 * `initial_state` is empty for every one), so a reset is a fresh copy whatever the task.
 */
export interface RetailEnvironment {
  reset(task?: unknown): void;
  call(name: string, args: unknown): RetailToolOutcome;
  state(): RetailDb;
  /**
   * The changes since the reset, exactly `diffStates(db.json, state())`, computed from the records this copy
   * replaced (writes copy a record before changing it, so an untouched record is db.json's own object): no walk
   * over the whole database.
   */
  changes(): StateChange[];
}

export function createRetailEnvironment(initial: RetailDb): RetailEnvironment {
  let db = copyRetailDb(initial);
  return {
    reset() {
      db = copyRetailDb(initial);
    },
    call: (name, args) => callRetailTool(db, name, args),
    state: () => db,
    changes: () => changedRecords(initial as unknown as Tree, db as unknown as Tree),
  };
}

type Tree = Record<string, unknown>;

const isTree = (value: unknown): value is Tree =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * `diffStates(before, after)` where `after` shares every unchanged value of `before` (copy on write), two levels deep
 * (tables, then records): only the values that are not the same object are compared.
 */
function changedRecords(before: Tree, after: Tree): StateChange[] {
  const then: Tree = {};
  const now: Tree = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[key];
    const b = after[key];
    if (key in before && key in after && a === b) continue;
    if (isTree(a) && isTree(b)) {
      const changedThen: Tree = {};
      const changedNow: Tree = {};
      for (const id of new Set([...Object.keys(a), ...Object.keys(b)])) {
        if (id in a && id in b && a[id] === b[id]) continue;
        if (id in a) changedThen[id] = a[id];
        if (id in b) changedNow[id] = b[id];
      }
      then[key] = changedThen;
      now[key] = changedNow;
      continue;
    }
    if (key in before) then[key] = a;
    if (key in after) now[key] = b;
  }
  return diffStates(then, now);
}
