import type { Experience, LibraryVersion, Run } from "@tfgrpo/protocol";
import type { Store, UsageReport } from "@tfgrpo/store";
import type { LessonCosts } from "../learn/lesson-costs.js";
import type { StepRecord } from "../learn/step-record.js";
import type { StoredEvaluation } from "../learn/stored-evaluation.js";
import { runLessonCosts } from "../learn/stored-lesson-costs.js";
import { collectLearningEvents, type LearningEvents } from "./learning-events.js";

export type { StoredEvaluation } from "../learn/stored-evaluation.js";

export interface ReportData {
  run: Run;
  steps: StepRecord[];
  evaluations: StoredEvaluation[];
  versions: LibraryVersion[];
  library: { version: number; experiences: Experience[] } | null;
  usage: UsageReport;
  /** What each step's learning cost and which entries it went to (learning runs). */
  lessonCosts: LessonCosts[];
  /** Gate rejections and lifecycle moves (promotions, demotions, archivals) of a learning run (absent for other runs). */
  events?: LearningEvents;
  /** True when the run talked to the simulated world (packages/sim), so every page says so. */
  simulated: boolean;
  generatedAt: string;
}

/** Everything the report shows, read from the store (steps and evaluations are kept in the run's state area). */
export async function collectReportData(
  store: Store,
  runId: string,
  now: () => Date = () => new Date(),
): Promise<ReportData> {
  const run = await store.getRun(runId);
  if (!run) throw new Error(`run "${runId}" not found in the store`);
  const keys = await store.listRunStateKeys(runId);
  const steps: StepRecord[] = [];
  const evaluations: StoredEvaluation[] = [];
  for (const key of keys) {
    if (key.startsWith("step/")) steps.push((await store.getRunState(runId, key)) as StepRecord);
    if (key.startsWith("evaluation/"))
      evaluations.push((await store.getRunState(runId, key)) as StoredEvaluation);
  }
  steps.sort((a, b) => a.step - b.step);
  evaluations.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const versions = (await store.listVersions(run.domain)).filter(
    (v) => v.runId === runId || v.state === "committed",
  );
  const head = await store.getHead(run.domain);
  return {
    run,
    steps,
    evaluations,
    versions,
    library: head ? { version: head.version, experiences: head.experiences } : null,
    usage: await store.getUsageTotals(runId),
    lessonCosts: await runLessonCosts(store, runId),
    ...(run.kind === "learn" ? { events: await collectLearningEvents(store, run.domain, runId) } : {}),
    simulated: Boolean(run.config.simulated),
    generatedAt: now().toISOString(),
  };
}
