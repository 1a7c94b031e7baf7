import type { Command } from "commander";
import type { DbCopyOptions } from "../commands/db.js";

export function registerDbCommand(program: Command): void {
  const db = program.command("db").description("Databases: copy libraries between SQLite and PostgreSQL");
  db.command("copy")
    .description(
      "Copy libraries with their versions, ids, stats and history exactly from one database to another (a SQLite file or postgres://user:password@host:port/database, either way); libraries the target already holds are refused",
    )
    .requiredOption("--from <url>", "the database to copy from (must exist)")
    .requiredOption("--to <url>", "the database to copy into (a SQLite file is created if needed)")
    .option("--domain <name...>", "only these libraries (default: all)")
    .action(async (options: DbCopyOptions) => {
      const { dbCopy } = await import("../commands/db.js");
      await dbCopy(options);
    });
}
