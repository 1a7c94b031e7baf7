import { TfgrpoError } from "@tfgrpo/protocol";
import { createStore } from "../create-store.js";
import { parseStoreUrl } from "../parse-store-url.js";
import type { PostgresConnection } from "../postgres/postgres-connection.js";
import { redactUrl } from "../postgres/postgres-connection.js";
import type { Store } from "../store.js";

/** How a copy reads and writes its tables in each backend (libraries, or the records beside them). */
export interface TablesAccessFactory<A extends { close(): Promise<void> }> {
  sqlite(path: string): A;
  postgres(connection: PostgresConnection): A;
}

/**
 * The two ends of a `db copy`: refuses the same database twice, opens the source (it must exist) and the target
 * (created if needed, migrated), gives `body` the tables access of each, and closes all of them whatever happens.
 */
export async function withCopyEnds<A extends { close(): Promise<void> }, T>(
  from: string,
  to: string,
  tables: TablesAccessFactory<A>,
  body: (readFrom: A, writeTo: A) => Promise<T>,
): Promise<T> {
  if (from.trim() === to.trim()) {
    throw new TfgrpoError(
      "invalid_input",
      `db copy: --from and --to are the same database (${redactUrl(from)})`,
    );
  }
  const source = await createStore(from, { mustExist: true });
  let target: Store | undefined;
  let readFrom: A | undefined;
  let writeTo: A | undefined;
  try {
    target = await createStore(to);
    readFrom = access(from, source, tables);
    writeTo = access(to, target, tables);
    return await body(readFrom, writeTo);
  } finally {
    await readFrom?.close();
    await writeTo?.close();
    await target?.close();
    await source.close();
  }
}

function access<A extends { close(): Promise<void> }>(
  location: string,
  store: Store,
  tables: TablesAccessFactory<A>,
): A {
  const parsed = parseStoreUrl(location);
  if (parsed.backend === "sqlite") return tables.sqlite(parsed.path);
  if (store.postgresConnection === undefined) {
    throw new TfgrpoError("internal", `db copy: ${redactUrl(location)} did not open as PostgreSQL`);
  }
  return tables.postgres(store.postgresConnection);
}
