import type { Trajectory } from "@tfgrpo/protocol";
import { readStoredJson } from "../sqlite/stored-json.js";
import {
  type CompactRunTrajectoriesOptions,
  compactedRecord,
  type TrajectoryCompaction,
} from "../trajectory-compaction.js";
import type { PostgresConnection } from "./postgres-connection.js";

/** `compactRunTrajectories` on PostgreSQL: one transaction, the steps' rows read through `(run_id, step)`. */
export function postgresTrajectoryCompaction(connection: PostgresConnection): TrajectoryCompaction {
  return {
    async compactRunTrajectories(
      runId: string,
      { fromStep = 0, throughStep }: CompactRunTrajectoriesOptions,
    ) {
      return connection.transaction(async (sql) => {
        const rows = (
          await sql.query<{ id: string; record: string }>(
            "SELECT id, record FROM trajectories WHERE run_id = $1 AND step BETWEEN $2 AND $3 FOR UPDATE",
            [runId, fromStep, throughStep],
          )
        ).rows;
        const ids: string[] = [];
        const records: string[] = [];
        for (const row of rows) {
          const trajectory = readStoredJson<Trajectory>(row.record, `trajectories row ${row.id}`);
          const record = compactedRecord(row.record, trajectory);
          if (record === null) continue;
          ids.push(row.id);
          records.push(record);
        }
        if (ids.length > 0)
          await sql.query(
            `UPDATE trajectories SET record = compacted.record
             FROM unnest($1::text[], $2::text[]) AS compacted(id, record) WHERE trajectories.id = compacted.id`,
            [ids, records],
          );
        return ids.length;
      });
    },
  };
}
