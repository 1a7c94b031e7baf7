import { TfgrpoError } from "@tfgrpo/protocol";
import type { SqliteConnection } from "./sqlite-connection.js";

/** Runs a write in a shared transaction; resolves once that transaction has committed. */
export type BatchedWrite = <T>(fn: () => T) => Promise<T>;

interface Pending {
  fn: () => unknown;
  resolve: (value: never) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for small, independent writes (served selections, outcome reports): writes submitted in the same
 * turn of the event loop share one `BEGIN IMMEDIATE` transaction, each inside its own savepoint. A write that
 * refuses (throws a TfgrpoError) rolls back only its savepoint and rejects only its own promise; the others commit
 * together, and every
 * promise settles after the commit (a failed commit rejects them all). Under many concurrent clients the COMMIT —
 * most of a small write's cost — is paid once per batch instead of once per write; a lone write waits one
 * `setImmediate`.
 */
export function createWriteBatcher(connection: SqliteConnection, maxBatch = 256): BatchedWrite {
  const queue: Pending[] = [];
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    const batch = queue.splice(0, maxBatch);
    if (queue.length > 0) schedule();
    const results: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      connection.write(() => {
        for (const write of batch) {
          try {
            // Inside the outer transaction this is a savepoint: a throw undoes this write only.
            results.push({ ok: true, value: connection.db.transaction(write.fn)() });
          } catch (error) {
            // A refusal (conflict, not found, invalid) is this write's own; anything else (a full disk, an I/O
            // error) fails the whole batch, so the store's usual error translation applies to every write of it.
            if (!TfgrpoError.isInstance(error)) throw error;
            results.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      for (const write of batch) write.reject(error);
      return;
    }
    batch.forEach((write, index) => {
      const result = results[index]!;
      if (result.ok) write.resolve(result.value as never);
      else write.reject(result.error);
    });
  };

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };

  return <T>(fn: () => T) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ fn, resolve: resolve as (value: never) => void, reject });
      schedule();
    });
}
