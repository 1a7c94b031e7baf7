import { TfgrpoError } from "@tfgrpo/protocol";
import { expect, it } from "vitest";
import { SqliteConnection } from "./sqlite-connection.js";
import { createWriteBatcher } from "./sqlite-write-batcher.js";

function open() {
  const connection = new SqliteConnection({ path: ":memory:" });
  connection.db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)");
  let commits = 0;
  const write = connection.write.bind(connection);
  connection.write = <T>(fn: () => T): T => {
    const result = write(fn);
    commits++;
    return result;
  };
  return { connection, commits: () => commits };
}

it("writes of one event-loop turn share one commit; a refused write is undone alone", async () => {
  const { connection, commits } = open();
  const batch = createWriteBatcher(connection);
  const insert = (id: number) => () =>
    connection.db.prepare("INSERT INTO t (id, v) VALUES (?, ?)").run(id, `v${id}`).changes;
  const results = await Promise.allSettled([
    batch(insert(1)),
    batch(() => {
      insert(2)();
      throw new TfgrpoError("conflict", "refused after writing");
    }),
    batch(insert(3)),
  ]);
  expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  expect((results[1] as PromiseRejectedResult).reason.message).toBe("refused after writing");
  expect(connection.db.prepare("SELECT id FROM t ORDER BY id").all()).toEqual([{ id: 1 }, { id: 3 }]);
  expect(commits()).toBe(1);
  // A lone write commits on its own, one turn later.
  expect(await batch(insert(4))).toBe(1);
  expect(commits()).toBe(2);
  connection.close();
});

it("an unexpected error fails the whole batch and writes nothing", async () => {
  const { connection } = open();
  const batch = createWriteBatcher(connection);
  const results = await Promise.allSettled([
    batch(() => connection.db.prepare("INSERT INTO t (id, v) VALUES (1, 'a')").run()),
    batch(() => connection.db.prepare("INSERT INTO t (id, v) VALUES (2, NULL)").run()),
  ]);
  expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  expect(connection.db.prepare("SELECT count(*) AS n FROM t").get()).toEqual({ n: 0 });
  connection.close();
});
