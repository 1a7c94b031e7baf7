import { parseStoreUrl } from "./parse-store-url.js";
import { PostgresStore } from "./postgres/postgres-store.js";
import { SqliteStore } from "./sqlite/sqlite-store.js";
import type { Store } from "./store.js";

export interface CreateStoreOptions {
  now?: () => Date;
  /** Refuse to create a database that does not exist yet (read-only commands). */
  mustExist?: boolean;
  busyTimeoutMs?: number;
}

/**
 * Opens (creating if needed) and migrates the store at a URL or path. The scheme picks the backend (SQLite or
 * PostgreSQL, see `parseStoreUrl`), so adding a backend is adding a case here.
 */
export async function createStore(urlOrPath: string, options: CreateStoreOptions = {}): Promise<Store> {
  const location = parseStoreUrl(urlOrPath);
  if (location.backend === "postgres") {
    // A database on a server always exists before tfgrpo opens it (a missing one is refused), so `mustExist` holds.
    return PostgresStore.open({ url: location.url, ...(options.now ? { now: options.now } : {}) });
  }
  return SqliteStore.open({
    path: location.path,
    ...(options.now ? { now: options.now } : {}),
    ...(options.busyTimeoutMs !== undefined ? { busyTimeoutMs: options.busyTimeoutMs } : {}),
    fileMustExist: options.mustExist ?? false,
  });
}
