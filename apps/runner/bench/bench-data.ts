import path from "node:path";
import type { Task } from "@tfgrpo/protocol";
import { createSuite, writeSuiteJsonl } from "@tfgrpo/sim";
import { batchTasks, seed, valTasks } from "./bench-settings.js";

export interface BenchData {
  train: string;
  val: string;
  trainTasks: Task[];
}

/** The math train and validation suites of the step, written as JSONL under `directory`. */
export async function writeData(directory: string): Promise<BenchData> {
  const train = path.join(directory, "train.jsonl");
  const val = path.join(directory, "val.jsonl");
  const trainTasks = createSuite({ domain: "math", seed, size: batchTasks, split: "train" });
  await writeSuiteJsonl(train, trainTasks);
  await writeSuiteJsonl(val, createSuite({ domain: "math", seed, size: valTasks, split: "val" }));
  return { train, val, trainTasks };
}
