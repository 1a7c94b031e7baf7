import { isDeepStrictEqual } from "node:util";
import { TfgrpoError } from "@tfgrpo/protocol";
import { withCopyEnds } from "./copy-ends.js";
import { postgresRecordTables } from "./postgres-record-tables-access.js";
import {
  keyOf,
  type RecordRow,
  type RecordScope,
  type RecordTable,
  type RecordTablesAccess,
  recordTables,
} from "./record-tables.js";
import { sqliteRecordTables } from "./sqlite-record-tables-access.js";

export interface CopyRecordsOptions {
  /** Only the records of these libraries (their runs, selections, outcomes, ...); default all. */
  domains?: readonly string[];
  /** Only check that the target holds none of them (throws `conflict` if it does); write nothing. */
  checkOnly?: boolean;
  /** Rows per read and per write transaction. Default 2,000. */
  pageSize?: number;
}

export interface CopiedTable {
  table: string;
  rows: number;
  /** For `seq` tables: what was added to each copied `seq` (0: kept as it was). */
  seqOffset?: number;
}

/**
 * Copies everything beside the libraries (`recordTables`: runs and their state, trajectories, usage, selections,
 * outcomes, waiting contrasts, per-version contrasts, retention's aggregates) between two databases of any backends,
 * row for row. Like the library copy, a target that already holds any of these rows (the same run, trajectory,
 * selection or key) is refused before anything is written. A `seq` (outcomes, usage) is kept when the target's are
 * all below it, else every copied one moves after the target's largest, in the same order. Each page is one
 * transaction; afterwards every table is read back from the target and compared row for row with the source.
 */
export async function copyRecords(
  from: string,
  to: string,
  options: CopyRecordsOptions = {},
): Promise<CopiedTable[]> {
  const scope: RecordScope = options.domains ? { domains: [...new Set(options.domains)] } : null;
  const pageSize = options.pageSize ?? 2_000;
  return withCopyEnds(
    from,
    to,
    { sqlite: sqliteRecordTables, postgres: postgresRecordTables },
    async (readFrom, writeTo) => {
      const pages = async function* (table: RecordTable) {
        for (let offset = 0; ; offset += pageSize) {
          const rows = await readFrom.read(table, scope, offset, pageSize);
          if (rows.length > 0) yield rows;
          if (rows.length < pageSize) return;
        }
      };
      for (const table of recordTables) {
        if (table.sequence) continue;
        for await (const rows of pages(table)) {
          const clash = await writeTo.existing(table, rows);
          if (clash.size > 0) {
            const first = [...clash][0]!.replaceAll("\u0001", "/");
            throw new TfgrpoError(
              "conflict",
              `db copy: ${writeTo.where} already holds ${clash.size}${clash.size === pageSize ? "+" : ""} row(s) of ${table.name} that ${readFrom.where} has (e.g. ${first}); nothing copied (copy into a database without them, or name other libraries with --domain)`,
              { details: { table: table.name, first } },
            );
          }
        }
      }
      if (options.checkOnly) return [];
      const copied: CopiedTable[] = [];
      for (const table of recordTables) {
        let seqOffset = 0;
        if (table.sequence) {
          const first = (await readFrom.read(table, scope, 0, 1))[0];
          const targetMax = await writeTo.maxSequence(table);
          if (first && targetMax >= (first.seq as number)) seqOffset = targetMax - (first.seq as number) + 1;
        }
        let rows = 0;
        for await (const page of pages(table)) {
          rows += await writeTo.write(
            table,
            seqOffset === 0 ? page : page.map((row) => ({ ...row, seq: (row.seq as number) + seqOffset })),
          );
        }
        await verify(table, readFrom, writeTo, scope, seqOffset, pageSize);
        copied.push({ table: table.name, rows, ...(table.sequence ? { seqOffset } : {}) });
      }
      return copied;
    },
  );
}

/** Every copied row, read back from the target, is there and equals the source's (seq moved by the offset). */
async function verify(
  table: RecordTable,
  readFrom: RecordTablesAccess,
  writeTo: RecordTablesAccess,
  scope: RecordScope,
  seqOffset: number,
  pageSize: number,
): Promise<void> {
  // The target's rows in scope by key, then each source row looked up and compared.
  const byKey = new Map<string, RecordRow>();
  for (let offset = 0; ; offset += pageSize) {
    const rows = await writeTo.read(table, scope, offset, pageSize);
    for (const row of rows) byKey.set(keyOf(table, row), row);
    if (rows.length < pageSize) break;
  }
  for (let offset = 0; ; offset += pageSize) {
    const rows = await readFrom.read(table, scope, offset, pageSize);
    for (const row of rows) {
      const moved = table.sequence ? { ...row, seq: (row.seq as number) + seqOffset } : row;
      if (!isDeepStrictEqual(byKey.get(keyOf(table, moved)), moved)) {
        throw new TfgrpoError(
          "internal",
          `db copy: a row of ${table.name} (${keyOf(table, moved).replaceAll("\u0001", "/")}) differs in the target after copying`,
          { details: { table: table.name } },
        );
      }
    }
    if (rows.length < pageSize) break;
  }
}
