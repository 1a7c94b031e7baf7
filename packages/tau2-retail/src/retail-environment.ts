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
}

export function createRetailEnvironment(initial: RetailDb): RetailEnvironment {
  let db = copyRetailDb(initial);
  return {
    reset() {
      db = copyRetailDb(initial);
    },
    call: (name, args) => callRetailTool(db, name, args),
    state: () => db,
  };
}
