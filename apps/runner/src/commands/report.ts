import path from "node:path";
import { createStore } from "@tfgrpo/store";
import type { Command } from "commander";
import { artifactDirectory } from "../cli-options/artifact-directory.js";
import { writeReport } from "../report/write-report.js";
import { resolveDatabase } from "./library.js";

export function registerReportCommand(program: Command): void {
  program
    .command("report <run>")
    .description(
      "Write a self-contained HTML report of a run (curves, library, evaluation, cost) and print its path",
    )
    .option("--db <path>", "workspace database (default: $TFGRPO_DB, else .tfgrpo/tfgrpo.db)")
    .option("--out <file>", "output file (default: reports/<run>.html beside the database)")
    .action(async (run: string, options: { db?: string; out?: string }) => {
      const db = resolveDatabase(options);
      const store = await createStore(db, { mustExist: true });
      try {
        const file = options.out ?? path.join(artifactDirectory(db), "reports", `${run}.html`);
        process.stdout.write(`${await writeReport(store, run, file)}\n`);
      } finally {
        await store.close();
      }
    });
}
