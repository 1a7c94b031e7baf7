import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { loadDataset, type Task } from "@tfgrpo/protocol";
import type { SimModule } from "../runtime/start-sim-world.js";
import type { AblationSettings } from "./ablation-settings.js";

/** The sim suites of the workspace (train, validation and test are disjoint instances of the same families). */
export async function writeSimData(
  settings: AblationSettings,
  simulator: Pick<SimModule, "createSuite" | "writeSuiteJsonl">,
): Promise<void> {
  const { sizes } = settings;
  if (!sizes) return;
  for (const split of ["train", "val", "test"] as const) {
    if (existsSync(settings.data[split])) continue;
    await simulator.writeSuiteJsonl(
      settings.data[split],
      simulator.createSuite({
        domain: settings.domain as "math" | "web",
        seed: settings.seed,
        size: sizes[split],
        split,
      }),
    );
  }
}

/** The training file without its answers: the no-ground-truth run must not be able to see them anywhere. */
export async function writeWithoutAnswers(source: string, target: string, domain: string): Promise<void> {
  const tasks = await loadDataset(source, { domain, requireAnswer: false });
  const lines = tasks.map(({ answer: _answer, ...task }: Task) => JSON.stringify(task));
  await writeFile(target, `${lines.join("\n")}\n`, "utf8");
}
