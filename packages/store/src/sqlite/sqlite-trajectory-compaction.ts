import type { Trajectory } from "@tfgrpo/protocol";
import {
  type CompactRunTrajectoriesOptions,
  compactedRecord,
  type TrajectoryCompaction,
} from "../trajectory-compaction.js";
import type { SqliteConnection } from "./sqlite-connection.js";
import { readStoredJson } from "./stored-json.js";

/** `compactRunTrajectories` on SQLite: one write transaction over the steps' rows (read through `(run_id, step)`). */
export function sqliteTrajectoryCompaction(connection: SqliteConnection): TrajectoryCompaction {
  return {
    async compactRunTrajectories(
      runId: string,
      { fromStep = 0, throughStep }: CompactRunTrajectoriesOptions,
    ) {
      return connection.write(() => {
        const rows = connection
          .stmt("SELECT id, record FROM trajectories WHERE run_id = ? AND step BETWEEN ? AND ?")
          .all(runId, fromStep, throughStep) as Array<{ id: string; record: string }>;
        const update = connection.stmt("UPDATE trajectories SET record = ? WHERE id = ?");
        let changed = 0;
        for (const row of rows) {
          const trajectory = readStoredJson<Trajectory>(row.record, `trajectories row ${row.id}`);
          const record = compactedRecord(row.record, trajectory);
          if (record === null) continue;
          update.run(record, row.id);
          changed++;
        }
        return changed;
      });
    },
  };
}
