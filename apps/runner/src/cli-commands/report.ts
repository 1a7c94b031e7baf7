import type { Command } from "commander";

export function registerReportCommand(program: Command): void {
  program
    .command("report <run>")
    .description(
      "Write a self-contained HTML report of a run (curves, library, evaluation, cost) and print its path",
    )
    .option("--db <path>", "workspace database (default: $TFGRPO_DB, else .tfgrpo/tfgrpo.db)")
    .option("--out <file>", "output file (default: reports/<run>.html beside the database)")
    .action(async (run: string, options: { db?: string; out?: string }) => {
      const { report } = await import("../commands/report.js");
      await report(run, options);
    });
}
