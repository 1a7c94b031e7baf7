import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createStore } from "../create-store.js";
import { makeTrajectory } from "../testing/fixtures.js";
import { storeContractTests } from "../testing/store-contract-tests.js";
import { migrations } from "./migrations.js";
import { SqliteStore } from "./sqlite-store.js";

storeContractTests("sqlite :memory:", () => createStore(":memory:"));

const dir = mkdtempSync(path.join(os.tmpdir(), "tfgrpo-store-contract-"));
let n = 0;
storeContractTests("sqlite file", () => createStore(`sqlite://${path.join(dir, `store-${n++}.db`)}`));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("SqliteStore composition", () => {
  it("its three aggregate stores share one connection: each sees the others' writes, one close ends them all", async () => {
    // In memory, a second connection would be a second, empty database.
    const store = await SqliteStore.fromUrl("sqlite::memory:");
    await store.libraries.applyOperations("math", [{ op: "add", text: "kept", reason: "r" }], {
      parent: null,
      state: "committed",
    });
    await store.runs.putRunState("run-1", "cursor", { step: 1 });
    await store.trajectories.putTrajectories([makeTrajectory({ id: "t1" })]);
    expect((await store.getHead("math"))?.experiences.map((e) => e.text)).toEqual(["kept"]);
    expect(await store.getRunState("run-1", "cursor")).toEqual({ step: 1 });
    expect(await store.countTrajectories({ runId: "run-1" })).toBe(1);
    expect(store.inspect()).toMatchObject({ schemaVersion: migrations.at(-1)!.version, integrity: "ok" });
    // SQLite writers take turns on the file's write lock: no database-wide lock to offer.
    expect(store.withLock).toBeUndefined();
    // Nor a PostgreSQL connection: `db copy` reads its tables from the file.
    expect(store.postgresConnection).toBeUndefined();
    await store.close();
    await expect(store.runs.getRunState("run-1", "cursor")).rejects.toThrow(/not open/);
  });
});

describe("files that are not tfgrpo databases", () => {
  it("refuses a file that is not SQLite, and another program's SQLite file, in one line, changing neither", async () => {
    const { readFileSync, writeFileSync } = await import("node:fs");
    const Database = (await import("better-sqlite3")).default;
    const text = path.join(dir, "notes.db");
    writeFileSync(text, "these are my notes, not a database\n");
    const foreign = path.join(dir, "other-app.db");
    const other = new Database(foreign);
    other.exec("CREATE TABLE users (id INTEGER PRIMARY KEY); INSERT INTO users VALUES (1);");
    other.close();
    const before = [readFileSync(text), readFileSync(foreign)];

    await expect(createStore(text)).rejects.toThrow(
      /^not a tfgrpo database: .*notes\.db is not an SQLite file$/,
    );
    await expect(createStore(foreign)).rejects.toThrow(
      /^not a tfgrpo database: .*other-app\.db is an SQLite file with other tables \(users\)$/,
    );
    expect(readFileSync(text).equals(before[0]!)).toBe(true);
    expect(readFileSync(foreign).equals(before[1]!)).toBe(true);
  });
});
