import { TfgrpoError } from "@tfgrpo/protocol";
import { copyLibraries, redactUrl } from "@tfgrpo/store";

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
