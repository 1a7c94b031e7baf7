import { readFileSync } from "node:fs";
import path from "node:path";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStore } from "../create-store.js";
import type { LibraryFormat } from "../library-store.js";
import type { Store } from "../store.js";
import { add, at, gate, seedThreeEntries } from "../testing/contract-helpers.js";
import { expectTfgrpoError } from "../testing/fixtures.js";
import { type PostgresServerHandle, startPostgresServer } from "../testing/postgres-server.js";
import { realLibraryPath } from "../testing/real-libraries.js";
import { copyLibraries } from "./copy-libraries.js";

let server: PostgresServerHandle;
let temporary: TemporaryDirectory;
beforeAll(async () => {
  server = await startPostgresServer();
  temporary = await temporaryDirectory("tfgrpo-db-copy-");
});
afterAll(async () => {
  await server?.stop();
  await temporary?.[Symbol.asyncDispose]();
});

/** Two libraries with every kind of history: merges, scopes, conflict groups, stats, rejected and proposed versions, a rollback, an import with kept ids and a restore that keeps a file's version number. */
async function buildLibraries(store: Store): Promise<void> {
  await seedThreeEntries(store, "math");
  await store.updateStats("math", [
    { id: "G0", shown: 3, success: 1.5, sumDelta: -0.25, lastUsedVersion: 1 },
    { id: "G2", shown: 1, success: 1 },
  ]);
  const v2 = await store.applyOperations(
    "math",
    [
      {
        op: "merge",
        ids: ["G0", "G1"],
        text: "Check units; enumerate small cases first.",
        reason: "same idea",
      },
      { op: "modify", id: "G2", status: "active", conflictGroup: "exact", reason: "proved itself" },
      add("Simplify before substituting.", { scope: { when: "algebra" } }),
    ],
    { parent: 1, state: "proposed", runId: "run-2", message: "step 1", now: at(2) },
  );
  await store.setVersionState("math", v2.version.version, "committed", gate, { now: at(3) });
  const v3 = await store.applyOperations("math", [add("A lesson that lost.")], {
    parent: 2,
    state: "proposed",
    now: at(4),
  });
  await store.setVersionState(
    "math",
    v3.version.version,
    "rejected",
    { ...gate, decision: "reject" },
    { now: at(5) },
  );
  await store.applyOperations("math", [{ op: "delete", id: "G2", reason: "obsolete" }], {
    parent: 2,
    state: "committed",
    now: at(6),
  });
  await store.rollback("math", 2, { now: at(7), message: "undo the delete" });
  await store.applyOperations("math", [add("Pending candidate.")], {
    parent: 5,
    state: "proposed",
    now: at(8),
  });
  await store.updateStats("math", [{ id: "G3", shown: 2, success: 0.5, lastUsedVersion: 5 }]);
  await store.importLibrary("web", {
    text: readFileSync(realLibraryPath("web"), "utf8"),
    file: "web.json",
    now: at(9),
  });
  const exported = await store.exportLibrary("web", { format: "markdown" });
  await store.importLibrary("restored", {
    text: exported.replace(/version: 1\b/, "version: 7"),
    file: "web.md",
    replace: true,
    now: at(10),
  });
}

/** Everything a user can read of a database's libraries: listings, every version's record and its exports. */
async function everything(store: Store) {
  const domains = await store.listDomains();
  const result: Record<string, unknown> = { domains };
  for (const { domain } of domains) {
    const versions = await store.listVersions(domain);
    const exports: Record<string, string> = {};
    for (const v of versions)
      for (const format of ["json", "markdown", "plain"] as LibraryFormat[])
        exports[`v${v.version}.${format}`] = await store.exportLibrary(domain, {
          format,
          version: v.version,
        });
    result[domain] = { versions, exports, head: await store.getHead(domain) };
  }
  return result;
}

describe("tfgrpo db copy (copyLibraries)", () => {
  it("SQLite -> PostgreSQL -> SQLite round-trips byte-identical exports, versions, ids, stats and history", async () => {
    const first = path.join(temporary.path, "first.db");
    const last = path.join(temporary.path, "last.db");
    const pg = await server.createDatabase();
    const original = await createStore(first);
    await buildLibraries(original);
    const before = await everything(original);
    await original.close();

    const there = await copyLibraries(first, pg);
    expect(there.map((c) => c.domain)).toEqual(["math", "restored", "web"]);
    expect(there[0]).toMatchObject({ versions: 6, head: 5 });
    const back = await copyLibraries(pg, `sqlite://${last}`);
    expect(back).toEqual(there);

    for (const location of [pg, last]) {
      const store = await createStore(location);
      expect(await everything(store)).toEqual(before);
      // The id counter came along: the next new entry gets the id it would have had in the original.
      const next = await store.applyOperations("math", [add("after the copy")], {
        parent: 5,
        state: "committed",
      });
      expect(next.createdIds).toEqual(["G7"]); // G5 (rejected v3) and G6 (proposed v6) stay taken
      expect(next.version.version).toBe(7);
      await store.close();
    }
    // Byte for byte: the exports as files.
    const a = await createStore(first);
    const b = await createStore(last);
    for (const format of ["json", "markdown", "plain"] as LibraryFormat[])
      expect(await b.exportLibrary("web", { format })).toBe(await a.exportLibrary("web", { format }));
    await Promise.all([a.close(), b.close()]);
  });

  it("copies chosen libraries only, refuses one the target holds (nothing written), an unknown one, and :memory:", async () => {
    const file = path.join(temporary.path, "choose.db");
    const store = await createStore(file);
    await buildLibraries(store);
    await store.close();
    const pg = await server.createDatabase();
    expect((await copyLibraries(file, pg, { domains: ["web"] })).map((c) => c.domain)).toEqual(["web"]);
    const clash = await expectTfgrpoError(copyLibraries(file, pg), "conflict");
    expect(clash.message).toMatch(/already holds library web; nothing copied/);
    expect(clash.message).not.toContain(server.password);
    const target = await createStore(pg);
    expect((await target.listDomains()).map((d) => d.domain)).toEqual(["web"]);
    await target.close();
    await expectTfgrpoError(copyLibraries(file, pg, { domains: ["nope"] }), "not_found");
    await expectTfgrpoError(copyLibraries(file, ":memory:"), "invalid_input");
    await expectTfgrpoError(copyLibraries(path.join(temporary.path, "absent.db"), pg), "not_found");
  });
});
