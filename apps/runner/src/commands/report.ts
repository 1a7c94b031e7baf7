import path from "node:path";
import { createStore } from "@tfgrpo/store";
import { artifactDirectory } from "../cli-options/artifact-directory.js";
import { writeReport } from "../report/write-report.js";
import { resolveDatabase } from "./library.js";
import type { ReportCommandOptions } from "./report-command-options.js";

/** `tfgrpo report <run>`: writes the run's HTML report and prints its path. */
export async function report(run: string, options: ReportCommandOptions): Promise<void> {
  const db = resolveDatabase(options);
  const store = await createStore(db, { mustExist: true });
  try {
    const file = options.out ?? path.join(artifactDirectory(db), "reports", `${run}.html`);
    process.stdout.write(`${await writeReport(store, run, file)}\n`);
  } finally {
    await store.close();
  }
}
