import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Store } from "@tfgrpo/store";
import { renderReport } from "./render-report.js";
import { collectReportData } from "./report-data.js";

/** Writes the run's report (atomically: a half-written page never replaces a good one) and returns its path. */
export async function writeReport(store: Store, runId: string, file: string): Promise<string> {
  const html = renderReport(await collectReportData(store, runId));
  const target = path.resolve(file);
  await mkdir(path.dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.tmp`;
  await writeFile(temporary, html);
  await rename(temporary, target);
  return target;
}
