import type { Command } from "commander";
import { checkedOptions } from "../cli-options/checked-options.js";
import { positiveNumber } from "../cli-options/number-arguments.js";

export function registerDbCommand(program: Command): void {
  const db = program
    .command("db")
    .description(
      "Databases: copy between SQLite and PostgreSQL, prune online traffic by the retention settings",
    );
  db.command("copy")
    .description(
      "Copy libraries with their versions, ids, stats and history exactly, and the runs, trajectories, usage, selections, outcomes and contrasts recorded beside them, from one database to another (a SQLite file or postgres://user:password@host:port/database, either way); a target already holding any of it is refused",
    )
    .requiredOption("--from <url>", "the database to copy from (must exist)")
    .requiredOption("--to <url>", "the database to copy into (a SQLite file is created if needed)")
    .option("--domain <name...>", "only these libraries and their records (default: all)")
    .option("--libraries-only", "copy the libraries alone")
    // Checked against dbCopyCommandOptionsSchema (commands/db-command-options.ts), key for key, by a test.
    .action(async (raw: unknown) => {
      const options = await checkedOptions(
        "db copy",
        async () => (await import("../commands/db-command-options.js")).dbCopyCommandOptionsSchema,
        raw,
      );
      const { dbCopy } = await import("../commands/db.js");
      await dbCopy(options);
    });
  db.command("prune")
    .description(
      "Apply the retention settings now (TFGRPO_RETENTION, the options below, the defaults): mark selections past the report deadline as no report, compact old outcomes into per-version and per-entry aggregates, drop old trajectories",
    )
    .requiredOption("--db <url>", "the database (a SQLite file or postgres://…)")
    .option("--dry-run", "show the policy and the counts, change nothing")
    .option("--report-deadline-ms <ms>", "report deadline", positiveNumber)
    .option("--outcome-max-age-days <days>", "compact outcomes older than this", positiveNumber)
    .option("--max-outcomes-per-domain <n>", "at most this many live outcomes per domain", positiveNumber)
    .option("--keep-latest-outcomes <n>", "never compact the latest this many per domain", positiveNumber)
    .option("--trajectory-max-age-days <days>", "drop trajectories older than this", positiveNumber)
    .option("--unreported-max-age-days <days>", "compact expired selections older than this", positiveNumber)
    // Checked against dbPruneCommandOptionsSchema (commands/db-command-options.ts), key for key, by a test.
    .action(async (raw: unknown) => {
      const options = await checkedOptions(
        "db prune",
        async () => (await import("../commands/db-command-options.js")).dbPruneCommandOptionsSchema,
        raw,
      );
      const { dbPrune } = await import("../commands/db.js");
      await dbPrune(options);
    });
}
