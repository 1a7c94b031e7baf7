import { isDeepStrictEqual } from "node:util";
import { TfgrpoError } from "@tfgrpo/protocol";
import { withCopyEnds } from "./copy-ends.js";
import type { LibraryTables } from "./library-tables.js";
import { postgresLibraryTables } from "./postgres-library-tables-access.js";
import { sqliteLibraryTables } from "./sqlite-library-tables-access.js";

export interface CopyLibrariesOptions {
  /** Only these libraries (default: every library of the source). */
  domains?: readonly string[];
}

export interface CopiedLibrary {
  domain: string;
  versions: number;
  head: number | null;
  /** Entry contents (rows) copied: one per version in which an entry changed. */
  rows: number;
}

/**
 * Copies libraries between two databases of any backends (SQLite file <-> PostgreSQL, or the same backend twice)
 * exactly: every version with its number, parent, state, operations, gate decision, run and times; every entry with
 * its id, text, status, scope, conflict group, provenance and history; the stats; the id counter (ids are never
 * reused in the copy either) and the head. A library the target already holds is refused before anything is written;
 * each library is one transaction in the target, read back and compared after writing.
 */
export async function copyLibraries(
  from: string,
  to: string,
  options: CopyLibrariesOptions = {},
): Promise<CopiedLibrary[]> {
  return withCopyEnds(
    from,
    to,
    { sqlite: sqliteLibraryTables, postgres: postgresLibraryTables },
    async (readFrom, writeTo) => {
      const available = await readFrom.domains();
      const domains = options.domains ? [...new Set(options.domains)] : available;
      const missing = domains.filter((d) => !available.includes(d));
      if (missing.length > 0) {
        throw new TfgrpoError(
          "not_found",
          `db copy: ${readFrom.where} has no library ${missing.join(", ")}`,
          {
            details: { missing },
          },
        );
      }
      const present = new Set(await writeTo.domains());
      const clashing = domains.filter((d) => present.has(d));
      if (clashing.length > 0) {
        throw new TfgrpoError(
          "conflict",
          `db copy: ${writeTo.where} already holds library ${clashing.join(", ")}; nothing copied (copy into a database without it, or name others with --domain)`,
          { details: { clashing } },
        );
      }
      const copied: CopiedLibrary[] = [];
      for (const domain of domains) {
        const tables = await readFrom.read(domain);
        await writeTo.write(tables);
        const back = await writeTo.read(domain);
        if (!isDeepStrictEqual(comparable(back), comparable(tables))) {
          throw new TfgrpoError(
            "internal",
            `db copy: library ${domain} in ${writeTo.where} differs from the source after copying`,
            {
              details: { domain },
            },
          );
        }
        copied.push({
          domain,
          versions: tables.versions.length,
          head: tables.domain.head_version,
          rows: tables.rows.length,
        });
      }
      return copied;
    },
  );
}

/** Row ids are each database's own: compared by their order instead. */
function comparable(tables: LibraryTables) {
  const rank = new Map(tables.rows.map((r, index) => [r.row_id, index]));
  return {
    ...tables,
    rows: tables.rows.map((r) => ({ ...r, row_id: rank.get(r.row_id) })),
    entries: tables.entries.map((e) => ({ ...e, row_id: rank.get(e.row_id) })),
  };
}
