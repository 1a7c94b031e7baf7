import path from "node:path";
import { createStore } from "@tfgrpo/store";
import type { AblationRow } from "../learn/render-ablation-table.js";
import type { StoredEvaluation } from "../report/report-data.js";
import { writeReport } from "../report/write-report.js";
import type { AblationSettings } from "./ablation-settings.js";
import { ablationEvaluationId } from "./evaluate-variants.js";
import type { VariantRun } from "./learn-variant.js";

/**
 * The table stored as an evaluation of the full run (so the full run's report shows it), with the workspace's
 * settings and runs beside it; returns the evaluation and the path of the report written.
 */
export async function storeAblation(options: {
  workspace: string;
  settings: AblationSettings;
  full: VariantRun;
  rows: readonly AblationRow[];
  controls: readonly AblationRow[];
  simulated: boolean;
}): Promise<{ evaluation: StoredEvaluation; report: string }> {
  const { workspace, settings, full, rows, controls, simulated } = options;
  const evaluation: StoredEvaluation = {
    id: ablationEvaluationId,
    title: `Ablations (the paper's math table: no library, direct experiences, no ground truth, G = 1, full)${simulated ? " — SIMULATED" : ""}`,
    data: path.resolve(settings.data.test),
    k: settings.k,
    rows: [...rows, ...controls].map((row) => row.evaluation),
    createdAt: new Date().toISOString(),
  };
  const store = await createStore(full.database);
  let report: string;
  try {
    await store.putRunState(full.runId, `evaluation/${ablationEvaluationId}`, evaluation);
    await store.putRunState(full.runId, "ablation/runs", {
      workspace,
      settings,
      runs: [...rows, ...controls].map(({ evaluation: _evaluation, ...row }) => row),
    });
    report = await writeReport(
      store,
      full.runId,
      path.join(workspace, "full", "reports", `${full.runId}.html`),
    );
  } finally {
    await store.close();
  }
  return { evaluation, report };
}
