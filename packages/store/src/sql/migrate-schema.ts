import { TfgrpoError } from "@tfgrpo/protocol";
import type { Migration } from "./schema-migrations.js";
import { get, run, type Sql, script } from "./sql-port.js";

/** Which database is migrated, for the error that refuses one newer than this tfgrpo. */
export interface MigrationTarget {
  /** Its path or (redacted) URL. */
  where: string;
  /** Named in the error's details beside the versions, e.g. `{ path }` or `{ url }`. */
  details: Record<string, unknown>;
  now(): Date;
}

/**
 * Brings a database to the newest of `migrations`, inside the caller's write transaction (so a failed migration
 * leaves nothing half-applied and concurrent setups take turns): each migration above the recorded `schema_version`
 * runs once and is recorded with its description. A database newer than this tfgrpo is refused, untouched.
 */
export function* migrateSchema(migrations: readonly Migration[], target: MigrationTarget): Sql<void> {
  yield* script(`CREATE TABLE IF NOT EXISTS schema_version (
        version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const current = (yield* get<{ v: number | null }>("SELECT max(version) AS v FROM schema_version"))?.v ?? 0;
  const latest = migrations.at(-1)!.version;
  if (current > latest) {
    throw new TfgrpoError(
      "invalid_config",
      `${target.where}: database schema version ${current} is newer than this tfgrpo understands (${latest}); upgrade tfgrpo`,
      { details: { ...target.details, schemaVersion: current, supported: latest } },
    );
  }
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    yield* script(migration.sql);
    yield* run("INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)", [
      migration.version,
      migration.description,
      target.now().toISOString(),
    ]);
  }
}
