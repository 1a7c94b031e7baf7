import { afterAll, beforeAll, expect, it } from "vitest";
import { createStore } from "../create-store.js";
import { type PostgresServerHandle, startPostgresServer } from "../testing/postgres-server.js";
import { storeContractTests } from "../testing/store-contract-tests.js";
import type { PostgresStore } from "./postgres-store.js";

// The same contract suites SQLite passes (:memory: and a file), unchanged, on a real PostgreSQL: a database per test.
let server: PostgresServerHandle;
beforeAll(async () => {
  server = await startPostgresServer();
});
afterAll(() => server?.stop());

storeContractTests("postgres", async () => createStore(await server.createDatabase()));

it("offers its database-wide lock as a capability of the Store: two holders of one name take turns", async () => {
  const url = await server.createDatabase();
  const [a, b] = await Promise.all([createStore(url), createStore(url)]);
  try {
    const order: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered: () => void = () => {};
    const firstIn = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const first = a.withLock!("setup", async () => {
      order.push("a in");
      entered();
      await held;
      order.push("a out");
    });
    await firstIn;
    const second = b.withLock!("setup", async () => {
      order.push("b in");
      return 7;
    });
    // b waits on the lock a holds (seen by the server), and only then does a let go.
    const waiting = async () =>
      Number(
        (
          await (a as PostgresStore).connection.query(
            "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
          )
        ).rows[0].n,
      );
    for (let tries = 0; (await waiting()) === 0; tries++) {
      if (tries > 500 || order.includes("b in")) break;
    }
    expect(order).toEqual(["a in"]);
    release();
    await first;
    expect(await second).toBe(7);
    expect(order).toEqual(["a in", "a out", "b in"]);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
