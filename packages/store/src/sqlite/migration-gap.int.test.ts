import path from "node:path";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import Database from "better-sqlite3";
import { expect, it } from "vitest";
import { createStore } from "../create-store.js";

// Migration numbers need not be consecutive (7 was taken before 5 and 6 existed): a database written before
// migration 7 is brought up to it, its selections and outcomes kept (anonymous), and the gap never applied.
it("upgrades a database written before migration 7 across the gap in the numbers", async () => {
  await using temporary = await temporaryDirectory("tfgrpo-migration-gap-");
  const file = path.join(temporary.path, "old.db");
  const store = await createStore(file);
  await store.recordSelection({
    selectionId: "s1",
    domain: "math",
    version: null,
    entryIds: [],
    explorationIds: [],
    task: "2+2?",
    servedAt: new Date(0).toISOString(),
  });
  await store.reportOutcome({ selectionId: "s1", reward: 1, success: true });
  await store.close();
  // Take the file back to schema version 4, as the last release left it.
  const raw = new Database(file);
  raw.exec(`DROP INDEX outcomes_by_client; ALTER TABLE outcomes DROP COLUMN client;
    ALTER TABLE served_selections DROP COLUMN client; DROP TABLE client_exclusions;
    DELETE FROM schema_version WHERE version = 7;`);
  expect(raw.prepare("SELECT max(version) AS v FROM schema_version").get()).toEqual({ v: 4 });
  raw.close();

  const upgraded = await createStore(file, { mustExist: true });
  try {
    const [outcome] = await upgraded.listOutcomes({ domain: "math" });
    expect(outcome).toMatchObject({ selectionId: "s1", success: true });
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
    [1, 2, 3, 4, 7].map((version) => ({ version })),
  );
  check.close();
});
