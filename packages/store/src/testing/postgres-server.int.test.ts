import pg from "pg";
import { expect, it } from "vitest";
import { startPostgresServer } from "./postgres-server.js";

it("starts a real PostgreSQL on loopback with password auth, a database per call, and removes it on dispose", async () => {
  let serverGone: () => Promise<boolean>;
  {
    await using server = await startPostgresServer();
    const first = await server.createDatabase();
    const second = await server.createDatabase();
    expect(first).not.toBe(second);
    const client = new pg.Client({ connectionString: first });
    await client.connect();
    const row = (await client.query("SELECT current_database() AS db, current_setting('fsync') AS fsync"))
      .rows[0];
    expect(row.fsync).toBe("off");
    expect(first.endsWith(`/${row.db}`)).toBe(true);
    await client.end();
    const wrong = new pg.Client({ connectionString: server.url().replace(server.password, "wrong") });
    await expect(wrong.connect()).rejects.toThrow(/password authentication failed/);
    const pid = server.process.pid!;
    serverGone = async () => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    };
  }
  expect(await serverGone()).toBe(true);
});
