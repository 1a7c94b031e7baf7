import { existsSync } from "node:fs";
import { TfgrpoError } from "@tfgrpo/protocol";
import { localDatabaseFile } from "@tfgrpo/store";

const defaultMissingHint = "import a library or run tfgrpo learn first, or pass --db / set TFGRPO_DB";

/**
 * Refuses a local database file that does not exist yet, naming it and what to do (`hint`): commands that read a
 * library never create an empty database by accident (a typo in --db would look like "no libraries"). A server
 * database (PostgreSQL) is not checked here: opening it refuses a missing one.
 */
export function requireExistingDatabase(location: string, hint = defaultMissingHint): void {
  const file = localDatabaseFile(location);
  if (file !== null && !existsSync(file)) {
    throw new TfgrpoError("not_found", `no tfgrpo database at ${file} (${hint})`, { details: { db: file } });
  }
}
