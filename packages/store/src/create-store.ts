import { parseStoreUrl } from "./parse-store-url.js";
import { SqliteStore } from "./sqlite/sqlite-store.js";
import type { Store } from "./store.js";

export interface CreateStoreOptions {
  now?: () => Date;
  /** Refuse to create a database that does not exist yet (read-only commands). */
  mustExist?: boolean;
  busyTimeoutMs?: number;
}

/**
 * Opens (creating if needed) and migrates the store at a URL or path. The scheme picks the backend (only SQLite
 * today, see `parseStoreUrl`), so adding a backend is adding a case here.
 */
export async function createStore(urlOrPath: string, options: CreateStoreOptions = {}): Promise<Store> {
  const location = parseStoreUrl(urlOrPath);
  return SqliteStore.open({
    path: location.path,
    ...(options.now ? { now: options.now } : {}),
    ...(options.busyTimeoutMs !== undefined ? { busyTimeoutMs: options.busyTimeoutMs } : {}),
    fileMustExist: options.mustExist ?? false,
  });
}
