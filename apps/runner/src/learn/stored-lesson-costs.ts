import type { Store } from "@tfgrpo/store";
import { costsByEntry, type LessonCosts } from "./lesson-costs.js";
import { type RunStateStore, runStateKeys, runStateOf } from "./run-state.js";

/** The learning cost of a run's steps, step by step, from its run state (empty for runs older than the records). */
export async function runLessonCosts(store: RunStateStore, runId: string): Promise<LessonCosts[]> {
  const records = await runStateOf(store, runId).list(runStateKeys.lessonCosts);
  return records.sort((a, b) => a.step - b.step);
}

/** Every learning run of a domain's lesson costs: what each entry cost, and what was spent on dropped proposals. */
export async function domainLessonCosts(store: RunStateStore & Pick<Store, "listRuns">, domain: string) {
  const runs = await store.listRuns({ domain, kind: "learn" });
  const records = (await Promise.all(runs.map((run) => runLessonCosts(store, run.id)))).flat();
  return {
    byEntry: costsByEntry(records),
    droppedUsd: records.reduce((sum, record) => sum + record.droppedUsd, 0),
    steps: records.length,
  };
}
