import {
  addUsage,
  emptyUsageTotals,
  formatZodIssues,
  type Role,
  TfgrpoError,
  type Trajectory,
  trajectorySchema,
  type UsageTotals,
  usageSchema,
} from "@tfgrpo/protocol";
import { z } from "zod";
import { keepsAnnotations } from "../trajectory-annotations.js";
import type { CompactRunTrajectoriesOptions } from "../trajectory-compaction.js";
import type { TrajectoryFilter, TrajectoryStore, UsageRecord, UsageReport } from "../trajectory-store.js";
import type { SqliteConnection } from "./sqlite-connection.js";
import { sqliteTrajectoryCompaction } from "./sqlite-trajectory-compaction.js";
import { readStoredJson } from "./stored-json.js";

const usageRecordSchema = usageSchema.extend({
  id: z.string().min(1).optional(),
  at: z.string().optional(),
});

/** Trajectories and usage records (`trajectories`, `usage_records`) on the shared connection of a SQLite store. */
export class SqliteTrajectoryStore implements TrajectoryStore {
  private readonly connection: SqliteConnection;

  constructor(connection: SqliteConnection) {
    this.connection = connection;
  }

  async putTrajectories(trajectories: readonly Trajectory[]): Promise<number> {
    const problems: string[] = [];
    const parsed = trajectories.map((trajectory, index) => {
      const result = trajectorySchema.safeParse(trajectory);
      if (!result.success) {
        const id = typeof trajectory?.id === "string" ? ` (${trajectory.id})` : "";
        problems.push(`trajectories[${index}]${id}: ${formatZodIssues(result.error.issues)}`);
      }
      return result.data;
    });
    if (problems.length > 0) {
      throw new TfgrpoError("invalid_input", `invalid trajectories, none stored: ${problems.join("; ")}`, {
        details: { problems },
      });
    }
    const storedAt = this.connection.now().toISOString();
    return this.connection.write(() => {
      const upsert = this.connection.stmt(
        `INSERT INTO trajectories (id, run_id, task_id, group_id, attempt, epoch, step, reward, record, stored_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET run_id = excluded.run_id, task_id = excluded.task_id,
           group_id = excluded.group_id, attempt = excluded.attempt, epoch = excluded.epoch, step = excluded.step,
           reward = excluded.reward, record = excluded.record, stored_at = excluded.stored_at
         WHERE ${keepsAnnotations}`,
      );
      let written = 0;
      for (const t of parsed as Trajectory[]) {
        written += upsert.run(
          t.id,
          t.runId,
          t.taskId,
          t.groupId,
          t.attempt,
          t.epoch ?? null,
          t.step ?? null,
          t.reward ?? null,
          JSON.stringify(t),
          storedAt,
        ).changes;
      }
      return written;
    });
  }

  async getTrajectory(id: string): Promise<Trajectory | null> {
    const row = this.connection.stmt("SELECT record FROM trajectories WHERE id = ?").get(id) as
      | { record: string }
      | undefined;
    return row ? readStoredJson<Trajectory>(row.record, `trajectories row ${id}`) : null;
  }

  async listTrajectories(filter: TrajectoryFilter): Promise<Trajectory[]> {
    const { where, params } = trajectoryWhere(filter);
    const rows = this.connection
      .stmt(
        `SELECT id, record FROM trajectories ${where}
       ORDER BY epoch, step, group_id, attempt, id LIMIT ? OFFSET ?`,
      )
      .all(...params, filter.limit ?? -1, filter.offset ?? 0) as Array<{ id: string; record: string }>;
    return rows.map((row) => readStoredJson<Trajectory>(row.record, `trajectories row ${row.id}`));
  }

  async countTrajectories(filter: TrajectoryFilter): Promise<number> {
    const { where, params } = trajectoryWhere(filter);
    return (
      this.connection.stmt(`SELECT count(*) AS n FROM trajectories ${where}`).get(...params) as { n: number }
    ).n;
  }

  compactRunTrajectories(runId: string, options: CompactRunTrajectoriesOptions): Promise<number> {
    return sqliteTrajectoryCompaction(this.connection).compactRunTrajectories(runId, options);
  }

  async recordUsage(runId: string, records: readonly UsageRecord[]): Promise<number> {
    const problems: string[] = [];
    const parsed = records.map((record, index) => {
      const result = usageRecordSchema.safeParse(record);
      if (!result.success) problems.push(`usage[${index}]: ${formatZodIssues(result.error.issues)}`);
      return result.data;
    });
    if (problems.length > 0) {
      throw new TfgrpoError(
        "invalid_input",
        `invalid usage records for run ${runId}: ${problems.join("; ")}`,
        {
          details: { runId, problems },
        },
      );
    }
    const at = this.connection.now().toISOString();
    return this.connection.write(() => {
      const insert = this.connection.stmt(
        `INSERT OR IGNORE INTO usage_records (id, run_id, role, model, input_tokens, cached_input_tokens,
           output_tokens, cost_usd, latency_ms, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const total = this.connection.stmt(
        `INSERT INTO usage_totals (run_id, role, model, calls, input_tokens, cached_input_tokens, output_tokens,
           cost_usd, latency_ms) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?)
         ON CONFLICT (run_id, role, model) DO UPDATE SET calls = calls + 1,
           input_tokens = input_tokens + excluded.input_tokens,
           cached_input_tokens = cached_input_tokens + excluded.cached_input_tokens,
           output_tokens = output_tokens + excluded.output_tokens, cost_usd = cost_usd + excluded.cost_usd,
           latency_ms = latency_ms + excluded.latency_ms`,
      );
      let inserted = 0;
      for (const u of parsed as Array<z.infer<typeof usageRecordSchema>>) {
        const changes = insert.run(
          u.id ?? null,
          runId,
          u.role,
          u.model,
          u.inputTokens,
          u.cachedInputTokens,
          u.outputTokens,
          u.costUsd,
          u.latencyMs,
          u.at ?? at,
        ).changes;
        if (changes === 0) continue;
        inserted++;
        total.run(
          runId,
          u.role,
          u.model,
          u.inputTokens,
          u.cachedInputTokens,
          u.outputTokens,
          u.costUsd,
          u.latencyMs,
        );
      }
      return inserted;
    });
  }

  async getUsageTotals(runId: string): Promise<UsageReport> {
    const rows = this.connection
      .stmt(
        `SELECT role, model, calls, input_tokens AS inputTokens, cached_input_tokens AS cachedInputTokens,
         output_tokens AS outputTokens, cost_usd AS costUsd, latency_ms AS latencyMs
       FROM usage_totals WHERE run_id = ? ORDER BY role, model`,
      )
      .all(runId) as Array<UsageTotals & { role: Role; model: string }>;
    const report: UsageReport = { runId, total: emptyUsageTotals(), byRole: {}, byModel: {} };
    for (const { role, model, ...totals } of rows) {
      report.total = addUsage(report.total, totals);
      report.byRole[role] = addUsage(report.byRole[role] ?? emptyUsageTotals(), totals);
      report.byModel[model] = addUsage(report.byModel[model] ?? emptyUsageTotals(), totals);
    }
    return report;
  }
}

function trajectoryWhere(filter: TrajectoryFilter): { where: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, value: unknown) => {
    clauses.push(clause);
    params.push(value);
  };
  // With ids, the primary key finds the rows; `+run_id` keeps the planner from scanning the run's index instead.
  if (filter.runId !== undefined) add(filter.ids === undefined ? "run_id = ?" : "+run_id = ?", filter.runId);
  if (filter.epoch !== undefined) add("epoch = ?", filter.epoch);
  if (filter.step !== undefined) add("step = ?", filter.step);
  if (filter.groupId !== undefined) add("group_id = ?", filter.groupId);
  if (filter.taskId !== undefined) add("task_id = ?", filter.taskId);
  if (filter.ids !== undefined) add("id IN (SELECT value FROM json_each(?))", JSON.stringify(filter.ids));
  return { where: clauses.length ? `WHERE ${clauses.join(" AND ")}` : "", params };
}
