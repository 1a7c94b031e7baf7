import { TfgrpoError } from "@tfgrpo/protocol";
import { postgresDialect, type Sql, type SqlPort, type Statement } from "../sql/sql-port.js";
import type { Sql as Client, PostgresConnection } from "./postgres-connection.js";

const numbered = new Map<string, string>();

/** `?` placeholders numbered `$1, $2, ...` (the shared SQL has no `?` of its own: no jsonb `?` operator). */
function numberPlaceholders(text: string): string {
  let out = numbered.get(text);
  if (out === undefined) {
    let n = 0;
    out = text.replace(/\?/g, () => `$${++n}`);
    numbered.set(text, out);
  }
  return out;
}

async function execute(client: Client, statement: Statement): Promise<unknown> {
  if ("insert" in statement) {
    const { types, rows } = statement;
    const columns = types.map((_, i) => rows.map((row) => row[i] ?? null));
    const unnest = types.map((type) => `?::${type}[]`).join(", ");
    const text = numberPlaceholders(`${statement.insert} SELECT * FROM unnest(${unnest}) ${statement.tail}`);
    const result = await client.query(text, columns);
    return statement.mode === "many-rows" ? result.rows : (result.rowCount ?? 0);
  }
  const text = numberPlaceholders(statement.text);
  const params = statement.params as unknown[];
  if (statement.mode === "raw") return (await client.query({ text, values: params, rowMode: "array" })).rows;
  const result = await client.query(text, params);
  if (statement.mode === "get") return result.rows[0];
  if (statement.mode === "all") return result.rows;
  return result.rowCount ?? 0;
}

export async function drive<T>(client: Client, work: Sql<T>): Promise<T> {
  let step = work.next();
  while (!step.done) {
    let result: unknown;
    try {
      result = await execute(client, step.value);
    } catch (error) {
      step = work.throw(error);
      continue;
    }
    step = work.next(result);
  }
  return step.value;
}

interface Pending {
  work: () => Sql<unknown>;
  resolve: (value: never) => void;
  reject: (error: unknown) => void;
}

/** Writes gathered per batch, and batches in flight at once (the next one gathers while these commit). */
const maxBatch = 256;
const maxBatchesInFlight = 2;

/**
 * The SQL port of a PostgreSQL store: statements on the pool, or on one client inside a transaction (locks taken
 * with `dialect.forUpdate`; a serialization failure or deadlock runs the work again). Group commit: writes queued
 * while up to two batches commit share the next transaction, each in a savepoint.
 */
export function postgresPort(connection: PostgresConnection): SqlPort {
  const queue: Pending[] = [];
  let inFlight = 0;
  let scheduled = false;
  const flush = async () => {
    scheduled = false;
    const batch = queue.splice(0, maxBatch);
    if (batch.length === 0) return;
    inFlight++;
    try {
      const results = await connection.transaction(async (client) => {
        const settled: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
        for (const pending of batch) {
          if (batch.length > 1) await client.query("SAVEPOINT batched");
          try {
            settled.push({ ok: true, value: await drive(client, pending.work()) });
            if (batch.length > 1) await client.query("RELEASE SAVEPOINT batched");
          } catch (error) {
            // A refusal is this write's own; anything else (the server) fails the batch, retried or reported whole.
            if (batch.length === 1 || !TfgrpoError.isInstance(error)) throw error;
            await client.query("ROLLBACK TO SAVEPOINT batched");
            settled.push({ ok: false, error });
          }
        }
        return settled;
      });
      batch.forEach((pending, i) => {
        const result = results[i]!;
        if (result.ok) pending.resolve(result.value as never);
        else pending.reject(result.error);
      });
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    } finally {
      inFlight--;
      schedule();
    }
  };
  const schedule = () => {
    if (scheduled || inFlight >= maxBatchesInFlight || queue.length === 0) return;
    scheduled = true;
    setImmediate(() => void flush());
  };
  return {
    dialect: postgresDialect,
    now: connection.now,
    run: (work) => drive(connection, work()),
    read: (work) => drive(connection, work()),
    write: (work) => connection.transaction((client) => drive(client, work())),
    batched: <T>(work: () => Sql<T>) =>
      new Promise<T>((resolve, reject) => {
        queue.push({ work, resolve: resolve as (value: never) => void, reject });
        schedule();
      }),
  };
}
