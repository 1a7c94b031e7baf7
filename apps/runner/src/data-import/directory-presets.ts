import type { Task } from "@tfgrpo/protocol";
import type { CommandOutput } from "../cli-options/command-output.js";
import { importTau2Retail } from "./import-tau2-retail.js";

/** A benchmark imported from its directory as downloaded (tasks, splits and what the domain needs at run time). */
export interface DirectoryPreset {
  description: string;
  run(
    options: { dir: string; outDir: string; seed: number; valShare?: number },
    output: CommandOutput,
  ): Promise<{ train: Task[]; val: Task[] }>;
}

export const directoryPresets: Record<string, DirectoryPreset> = {
  "tau2-retail": {
    description:
      "τ²-bench retail's directory (db.json, policy.md, tasks.json, split_tasks.json): train.jsonl (74), test.jsonl (40), the database, the policy and the domain's settings file",
    run: importTau2Retail,
  },
};
