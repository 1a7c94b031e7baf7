import net from "node:net";
import { TfgrpoError } from "@tfgrpo/protocol";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStore } from "../create-store.js";
import { parseStoreUrl } from "../parse-store-url.js";
import { expectTfgrpoError } from "../testing/fixtures.js";
import { type PostgresServerHandle, startPostgresServer } from "../testing/postgres-server.js";
import { PostgresStore } from "./postgres-store.js";

let server: PostgresServerHandle;
beforeAll(async () => {
  server = await startPostgresServer();
});
afterAll(() => server?.stop());

/** One line, naming the server, never the password. */
function expectOneLine(error: TfgrpoError, password: string) {
  expect(error.message).not.toContain("\n");
  expect(error.message).not.toContain(password);
  expect(JSON.stringify(error.details)).not.toContain(password);
}

describe("opening a PostgreSQL store", () => {
  it("opens postgres:// and postgresql:// URLs, migrates once, and keeps data across reopening", async () => {
    const url = await server.createDatabase();
    const store = await createStore(url);
    expect(store).toBeInstanceOf(PostgresStore);
    await store.applyOperations("math", [{ op: "add", text: "kept", reason: "r" }], {
      parent: null,
      state: "committed",
    });
    await store.close();
    const again = (await createStore(url.replace(/^postgres:/, "postgresql:"))) as PostgresStore;
    expect(await again.inspect()).toMatchObject({
      schemaVersion: 6,
      serverVersion: expect.stringMatching(/^\d+/),
    });
    expect((await again.getHead("math"))?.experiences.map((e) => e.text)).toEqual(["kept"]);
    await again.close();
  });

  it("refuses a malformed URL by what is wrong, without the password", () => {
    const cases: Array<[string, RegExp]> = [
      ["postgres://", /no host/],
      ["postgres://user:hunter2@db.example:54x/tfgrpo", /invalid PostgreSQL URL|not a URL|port/],
      ["postgres://user:hunter2@db.example:5432", /no database name/],
      ["postgres://user:hunter2@db.example:5432/", /no database name/],
    ];
    for (const [url, pattern] of cases) {
      let caught: unknown;
      try {
        parseStoreUrl(url);
      } catch (error) {
        caught = error;
      }
      expect(TfgrpoError.hasCode(caught, "invalid_config"), `${url}: ${String(caught)}`).toBe(true);
      const message = (caught as Error).message;
      expect(message).toMatch(pattern);
      expect(message).not.toContain("hunter2");
      expect(message).not.toContain("\n");
    }
  });

  it("a wrong password is invalid_config naming the server and the user", async () => {
    const url = server.url().replace(server.password, "not-the-password");
    const error = await expectTfgrpoError(createStore(url), "invalid_config");
    expect(error.message).toBe(
      `PostgreSQL at 127.0.0.1:${server.port} refused user "tfgrpo": password authentication failed for user "tfgrpo"`,
    );
    expectOneLine(error, "not-the-password");
  });

  it("a missing database is not_found naming it; nothing is created", async () => {
    const error = await expectTfgrpoError(createStore(server.url("no_such_db")), "not_found");
    expect(error.message).toBe(
      `PostgreSQL at 127.0.0.1:${server.port} has no database "no_such_db" (create it first: createdb no_such_db)`,
    );
    expectOneLine(error, server.password);
    const client = new pg.Client({ connectionString: server.url() });
    await client.connect();
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = 'no_such_db'");
    await client.end();
    expect(found.rowCount).toBe(0);
  });

  it("no server listening is a storage_error saying so", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const error = await expectTfgrpoError(
      createStore(`postgres://u:secret@127.0.0.1:${port}/x`),
      "storage_error",
    );
    expect(error.message).toBe(
      `cannot reach PostgreSQL at 127.0.0.1:${port}: connection refused (is the server running?)`,
    );
    expectOneLine(error, "secret");
  });

  it("refuses another program's database, changing nothing, and a schema newer than this tfgrpo", async () => {
    const foreign = await server.createDatabase();
    const client = new pg.Client({ connectionString: foreign });
    await client.connect();
    await client.query("CREATE TABLE users (id int PRIMARY KEY)");
    const error = await expectTfgrpoError(createStore(foreign), "invalid_input");
    expect(error.message).toMatch(
      /^not a tfgrpo database: postgres:\/\/tfgrpo:\*\*\*@.* has other tables \(users\)$/,
    );
    const tables = await client.query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    expect(tables.rows.map((r) => r.table_name)).toEqual(["users"]);

    const newer = await server.createDatabase();
    await (await createStore(newer)).close();
    const other = new pg.Client({ connectionString: newer });
    await other.connect();
    await other.query("INSERT INTO schema_version VALUES (99, 'from the future', 'x')");
    await other.end();
    await client.end();
    const tooNew = await expectTfgrpoError(createStore(newer), "invalid_config");
    expect(tooNew.message).toMatch(/database schema version 99 is newer than this tfgrpo understands \(6\)/);
  });

  it("a closed store says so", async () => {
    const store = await createStore(await server.createDatabase());
    await store.close();
    await expect(store.getHead("math")).rejects.toThrow(/is not open/);
  });
});
