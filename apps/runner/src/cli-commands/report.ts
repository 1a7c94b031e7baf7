import type { Command } from "commander";
import { checkedOptions } from "../cli-options/checked-options.js";

export function registerReportCommand(program: Command): void {
  program
    .command("report <run>")
    .description(
      "Write a self-contained HTML report of a run (curves, library, evaluation, cost) and print its path",
    )
    .option("--db <path>", "workspace database (default: $TFGRPO_DB, else .tfgrpo/tfgrpo.db)")
    .option("--out <file>", "output file (default: reports/<run>.html beside the database)")
    // Checked against reportCommandOptionsSchema (commands/report-command-options.ts), key for key, by a test.
    .action(async (run: string, raw: unknown) => {
      const options = await checkedOptions(
        "report",
        async () => (await import("../commands/report-command-options.js")).reportCommandOptionsSchema,
        raw,
      );

      const { report } = await import("../commands/report.js");
      await report(run, options);
    });
}
