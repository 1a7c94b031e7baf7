import { TfgrpoError } from "@tfgrpo/protocol";
import { copyLibraries, redactUrl } from "@tfgrpo/store";
import type { Command } from "commander";

export interface DbCopyOptions {
  from: string;
  to: string;
  domain?: string[];
}

/** `tfgrpo db copy`: libraries from one database to another, exactly (SQLite file <-> PostgreSQL, both ways). */
export async function dbCopy(
  options: DbCopyOptions,
  output: { stdout: NodeJS.WritableStream } = process,
): Promise<void> {
  if (!options.from || !options.to) {
    throw new TfgrpoError("invalid_input", "db copy needs --from URL and --to URL");
  }
  const copied = await copyLibraries(
    options.from,
    options.to,
    options.domain ? { domains: options.domain } : {},
  );
  for (const library of copied) {
    output.stdout.write(
      `${library.domain}: ${library.versions} version(s), head ${library.head === null ? "none" : `v${library.head}`}, ${library.rows} entry row(s)\n`,
    );
  }
  output.stdout.write(
    `copied ${copied.length} librar${copied.length === 1 ? "y" : "ies"} from ${redactUrl(options.from)} to ${redactUrl(options.to)}\n`,
  );
}

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
      await dbCopy(options);
    });
}
