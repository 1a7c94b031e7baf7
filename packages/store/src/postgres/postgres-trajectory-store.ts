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
import { readStoredJson } from "../sqlite/stored-json.js";
import { keepsAnnotations, latestCopies } from "../trajectory-annotations.js";
import type { CompactRunTrajectoriesOptions } from "../trajectory-compaction.js";
import type { TrajectoryFilter, TrajectoryStore, UsageRecord, UsageReport } from "../trajectory-store.js";
import type { PostgresConnection } from "./postgres-connection.js";

import { postgresTrajectoryCompaction } from "./postgres-trajectory-compaction.js";

const usageRecordSchema = usageSchema.extend({
  id: z.string().min(1).optional(),
  at: z.string().optional(),
});

/** Trajectories and usage records (`trajectories`, `usage_records`) of a PostgreSQL store. */
export class PostgresTrajectoryStore implements TrajectoryStore {
  private readonly connection: PostgresConnection;

  constructor(connection: PostgresConnection) {
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
    if (parsed.length === 0) return 0;
    // An id given twice in one call: what a loop of single upserts would leave.
    const rows = latestCopies(parsed as Trajectory[]);
    const storedAt = this.connection.now().toISOString();
    const result = await this.connection.query(
      `INSERT INTO trajectories (id, run_id, task_id, group_id, attempt, epoch, step, reward, record, stored_at)
       SELECT *, $10 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::int[],
         $8::float8[], $9::text[])
       ON CONFLICT (id) DO UPDATE SET run_id = excluded.run_id, task_id = excluded.task_id,
         group_id = excluded.group_id, attempt = excluded.attempt, epoch = excluded.epoch, step = excluded.step,
         reward = excluded.reward, record = excluded.record, stored_at = excluded.stored_at
       WHERE ${keepsAnnotations}`,
      [
        rows.map((t) => t.id),
        rows.map((t) => t.runId),
        rows.map((t) => t.taskId),
        rows.map((t) => t.groupId),
        rows.map((t) => t.attempt),
        rows.map((t) => t.epoch ?? null),
        rows.map((t) => t.step ?? null),
        rows.map((t) => t.reward ?? null),
        rows.map((t) => JSON.stringify(t)),
        storedAt,
      ],
    );
    return result.rowCount ?? 0;
  }

  async getTrajectory(id: string): Promise<Trajectory | null> {
    const row = (
      await this.connection.query<{ record: string }>("SELECT record FROM trajectories WHERE id = $1", [id])
    ).rows[0];
    return row ? readStoredJson<Trajectory>(row.record, `trajectories row ${id}`) : null;
  }

  async listTrajectories(filter: TrajectoryFilter): Promise<Trajectory[]> {
    const { where, params } = trajectoryWhere(filter);
    params.push(filter.limit ?? null, filter.offset ?? 0);
    const rows = (
      await this.connection.query<{ id: string; record: string }>(
        `SELECT id, record FROM trajectories ${where}
         ORDER BY epoch NULLS FIRST, step NULLS FIRST, group_id, attempt, id
         LIMIT $${params.length - 1} OFFSET $${params.length}`,
        params,
      )
    ).rows;
    return rows.map((row) => readStoredJson<Trajectory>(row.record, `trajectories row ${row.id}`));
  }

  async countTrajectories(filter: TrajectoryFilter): Promise<number> {
    const { where, params } = trajectoryWhere(filter);
    return (
      await this.connection.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM trajectories ${where}`,
        params,
      )
    ).rows[0]!.n;
  }

  compactRunTrajectories(runId: string, options: CompactRunTrajectoriesOptions): Promise<number> {
    return postgresTrajectoryCompaction(this.connection).compactRunTrajectories(runId, options);
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
    if (parsed.length === 0) return 0;
    const rows = parsed as Array<z.infer<typeof usageRecordSchema>>;
    const at = this.connection.now().toISOString();
    // One statement: the records and the run's totals of what was inserted (a record already stored adds nothing).
    const result = await this.connection.query<{ n: number }>(
      `WITH inserted AS (
       INSERT INTO usage_records (id, run_id, role, model, input_tokens, cached_input_tokens, output_tokens, cost_usd,
         latency_ms, at)
       SELECT u.id, $1, u.role, u.model, u.input_tokens, u.cached_input_tokens, u.output_tokens, u.cost_usd,
         u.latency_ms, u.at
       FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[], $8::float8[],
         $9::float8[], $10::text[]) WITH ORDINALITY
         AS u(id, role, model, input_tokens, cached_input_tokens, output_tokens, cost_usd, latency_ms, at, n)
       ORDER BY u.n
       ON CONFLICT (id) DO NOTHING
       RETURNING role, model, input_tokens, cached_input_tokens, output_tokens, cost_usd, latency_ms
       ), totals AS (
       INSERT INTO usage_totals (run_id, role, model, calls, input_tokens, cached_input_tokens, output_tokens,
         cost_usd, latency_ms)
       SELECT $1, role, model, count(*), sum(input_tokens), sum(cached_input_tokens), sum(output_tokens),
         sum(cost_usd), sum(latency_ms)
       FROM inserted GROUP BY role, model
       ON CONFLICT (run_id, role, model) DO UPDATE SET calls = usage_totals.calls + excluded.calls,
         input_tokens = usage_totals.input_tokens + excluded.input_tokens,
         cached_input_tokens = usage_totals.cached_input_tokens + excluded.cached_input_tokens,
         output_tokens = usage_totals.output_tokens + excluded.output_tokens,
         cost_usd = usage_totals.cost_usd + excluded.cost_usd,
         latency_ms = usage_totals.latency_ms + excluded.latency_ms
       RETURNING 1
       )
       SELECT count(*)::int AS n FROM inserted`,
      [
        runId,
        rows.map((u) => u.id ?? null),
        rows.map((u) => u.role),
        rows.map((u) => u.model),
        rows.map((u) => u.inputTokens),
        rows.map((u) => u.cachedInputTokens),
        rows.map((u) => u.outputTokens),
        rows.map((u) => u.costUsd),
        rows.map((u) => u.latencyMs),
        rows.map((u) => u.at ?? at),
      ],
    );
    return result.rows[0]?.n ?? 0;
  }

  async getUsageTotals(runId: string): Promise<UsageReport> {
    const rows = (
      await this.connection.query<UsageTotals & { role: Role; model: string }>(
        `SELECT role, model, calls::int AS "calls", input_tokens::float8 AS "inputTokens",
           cached_input_tokens::float8 AS "cachedInputTokens", output_tokens::float8 AS "outputTokens",
           cost_usd AS "costUsd", latency_ms AS "latencyMs"
         FROM usage_totals WHERE run_id = $1 ORDER BY role, model`,
        [runId],
      )
    ).rows;
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
    params.push(value);
    clauses.push(clause.replace("?", `$${params.length}`));
  };
  if (filter.runId !== undefined) add("run_id = ?", filter.runId);
  if (filter.epoch !== undefined) add("epoch = ?", filter.epoch);
  if (filter.step !== undefined) add("step = ?", filter.step);
  if (filter.groupId !== undefined) add("group_id = ?", filter.groupId);
  if (filter.taskId !== undefined) add("task_id = ?", filter.taskId);
  if (filter.ids !== undefined) add("id = ANY(?::text[])", filter.ids);
  return { where: clauses.length ? `WHERE ${clauses.join(" AND ")}` : "", params };
}
