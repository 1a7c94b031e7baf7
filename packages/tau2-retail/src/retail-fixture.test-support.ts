import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadRetailDb, type RetailDb } from "./retail-db.js";
import { type Tau2Task, tau2TaskSchema } from "./retail-task.js";

/** The real τ²-bench retail data copied into the repo (test-data/tau2-bench-retail), as a fresh clone has it. */
export const retailDataDir = fileURLToPath(new URL("../../../test-data/tau2-bench-retail/", import.meta.url));

let db: RetailDb | undefined;
export const realRetailDb = (): RetailDb => {
  db ??= loadRetailDb(`${retailDataDir}db.json`);
  return db;
};

let tasks: Map<string, Tau2Task> | undefined;
export function realTau2Task(id: string): Tau2Task {
  const task = realTau2Tasks().get(id);
  if (!task) throw new Error(`no τ² retail task ${id}`);
  return task;
}

/** Every τ² retail task of the copy, by id. */
export function realTau2Tasks(): ReadonlyMap<string, Tau2Task> {
  tasks ??= new Map(
    (JSON.parse(readFileSync(`${retailDataDir}tasks.json`, "utf8")) as unknown[]).map((raw) => {
      const task = tau2TaskSchema.parse(raw);
      return [task.id, task];
    }),
  );
  return tasks;
}
