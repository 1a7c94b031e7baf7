import path from "node:path";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import Database from "better-sqlite3";
import { expect, it } from "vitest";
import { createStore } from "../create-store.js";
import { migrations } from "./migrations.js";

// A database as the last release (schema 4) left it, built from the migration list itself, holding a served selection
// and its outcome: this tfgrpo applies every later migration once, in order, and keeps the rows (anonymous, cursor
// intact), whatever numbers the later migrations carry.
it("upgrades a database written at schema version 4 to the latest, keeping its selections and outcomes", async () => {
  await using temporary = await temporaryDirectory("tfgrpo-migration-upgrade-");
  const file = path.join(temporary.path, "release-4.db");
  const raw = new Database(file);
  raw.exec(`CREATE TABLE schema_version (
    version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  for (const migration of migrations.filter(({ version }) => version <= 4)) {
    raw.exec(migration.sql);
    raw
      .prepare("INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)")
      .run(migration.version, migration.description, new Date(0).toISOString());
  }
  raw
    .prepare(
      `INSERT INTO served_selections (selection_id, domain, version, entry_ids, exploration_ids, task, served_at)
       VALUES ('s1', 'math', NULL, '[]', '[]', '2+2?', ?)`,
    )
    .run(new Date(0).toISOString());
  raw
    .prepare(
      `INSERT INTO outcomes (selection_id, domain, version, reward, success, cited_ids, reported_at)
       VALUES ('s1', 'math', NULL, 1, 1, '[]', ?)`,
    )
    .run(new Date(1000).toISOString());
  raw.close();

  const upgraded = await createStore(file, { mustExist: true });
  try {
    const [outcome] = await upgraded.listOutcomes({ domain: "math" });
    expect(outcome).toMatchObject({ selectionId: "s1", success: true, seq: 1 });
    expect(outcome!.client).toBeUndefined();
    await upgraded.setClientExcluded("math", "mallory", true);
    expect(await upgraded.listClients("math")).toEqual([
      expect.objectContaining({ client: null, outcomes: 1 }),
      expect.objectContaining({ client: "mallory", outcomes: 0, excludedAt: expect.any(String) }),
    ]);
  } finally {
    await upgraded.close();
  }
  const check = new Database(file, { readonly: true });
  expect(check.prepare("SELECT version FROM schema_version ORDER BY version").all()).toEqual(
    migrations.map(({ version }) => ({ version })),
  );
  check.close();
});
