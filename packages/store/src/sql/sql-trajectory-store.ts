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
import { keepsAnnotations, latestCopies } from "../trajectory-annotations.js";
import { type CompactRunTrajectoriesOptions, compactedRecord } from "../trajectory-compaction.js";
import type { TrajectoryFilter, TrajectoryStore, UsageRecord, UsageReport } from "../trajectory-store.js";
import { all, allMany, get, run, runMany, type SqlPort } from "./sql-port.js";
import { readStoredJson } from "./stored-json.js";

const usageRecordSchema = usageSchema.extend({
  id: z.string().min(1).optional(),
  at: z.string().optional(),
});
type ParsedUsage = z.infer<typeof usageRecordSchema>;

/** One invalid item refuses them all: `refuse` makes the error from every problem, each named by its index. */
function parseAll<T>(
  items: readonly unknown[],
  schema: z.ZodType<T>,
  name: (index: number) => string,
  refuse: (problems: string[]) => TfgrpoError,
): T[] {
  const problems: string[] = [];
  const parsed = items.map((item, index) => {
    const result = schema.safeParse(item);
    if (!result.success) problems.push(`${name(index)}: ${formatZodIssues(result.error.issues)}`);
    return result.data as T;
  });
  if (problems.length > 0) throw refuse(problems);
  return parsed;
}

const trajectoryColumns = "id, run_id, task_id, group_id, attempt, epoch, step, reward, record, stored_at";

/** Trajectories and usage records (`trajectories`, `usage_records`, `usage_totals`) of a SQL store. */
export class SqlTrajectoryStore implements TrajectoryStore {
  constructor(private readonly db: SqlPort) {}

  async putTrajectories(trajectories: readonly Trajectory[]): Promise<number> {
    const parsed = parseAll(
      trajectories,
      trajectorySchema,
      (index) => {
        const id = trajectories[index]?.id;
        return `trajectories[${index}]${typeof id === "string" ? ` (${id})` : ""}`;
      },
      (problems) =>
        new TfgrpoError("invalid_input", `invalid trajectories, none stored: ${problems.join("; ")}`, {
          details: { problems },
        }),
    );
    if (parsed.length === 0) return 0;
    // An id given twice in one call: what a loop of single upserts would leave.
    const rows = latestCopies(parsed);
    const storedAt = this.db.now().toISOString();
    return this.db.write(() =>
      runMany(
        `INSERT INTO trajectories (${trajectoryColumns})`,
        ["text", "text", "text", "text", "int", "int", "int", "float8", "text", "text"],
        rows.map((t) => [
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
        ]),
        `ON CONFLICT (id) DO UPDATE SET run_id = excluded.run_id, task_id = excluded.task_id,
           group_id = excluded.group_id, attempt = excluded.attempt, epoch = excluded.epoch, step = excluded.step,
           reward = excluded.reward, record = excluded.record, stored_at = excluded.stored_at
         WHERE ${keepsAnnotations}`,
      ),
    );
  }

  async getTrajectory(id: string): Promise<Trajectory | null> {
    const row = await this.db.run(() =>
      get<{ record: string }>("SELECT record FROM trajectories WHERE id = ?", [id]),
    );
    return row ? readStoredJson<Trajectory>(row.record, `trajectories row ${id}`) : null;
  }

  async listTrajectories(filter: TrajectoryFilter): Promise<Trajectory[]> {
    const { where, params } = this.where(filter);
    const rows = await this.db.run(() =>
      all<{ id: string; record: string }>(
        `SELECT id, record FROM trajectories ${where}
         ORDER BY epoch NULLS FIRST, step NULLS FIRST, group_id, attempt, id LIMIT ? OFFSET ?`,
        [...params, filter.limit ?? this.db.dialect.noLimit, filter.offset ?? 0],
      ),
    );
    return rows.map((row) => readStoredJson<Trajectory>(row.record, `trajectories row ${row.id}`));
  }

  async countTrajectories(filter: TrajectoryFilter): Promise<number> {
    const { where, params } = this.where(filter);
    const row = await this.db.run(() =>
      get<{ n: number }>(`SELECT CAST(count(*) AS INTEGER) AS n FROM trajectories ${where}`, params),
    );
    return row!.n;
  }

  /** One write transaction over the steps' rows (read through `(run_id, step)`). */
  async compactRunTrajectories(
    runId: string,
    { fromStep = 0, throughStep }: CompactRunTrajectoriesOptions,
  ): Promise<number> {
    const { forUpdate } = this.db.dialect;
    return this.db.write(function* () {
      const rows = yield* all<{ id: string; record: string }>(
        `SELECT id, record FROM trajectories WHERE run_id = ? AND step BETWEEN ? AND ?${forUpdate}`,
        [runId, fromStep, throughStep],
      );
      let changed = 0;
      for (const row of rows) {
        const record = compactedRecord(
          row.record,
          readStoredJson<Trajectory>(row.record, `trajectories row ${row.id}`),
        );
        if (record === null) continue;
        changed += yield* run("UPDATE trajectories SET record = ? WHERE id = ?", [record, row.id]);
      }
      return changed;
    });
  }

  async recordUsage(runId: string, records: readonly UsageRecord[]): Promise<number> {
    const parsed: ParsedUsage[] = parseAll(
      records,
      usageRecordSchema,
      (index) => `usage[${index}]`,
      (problems) =>
        new TfgrpoError("invalid_input", `invalid usage records for run ${runId}: ${problems.join("; ")}`, {
          details: { runId, problems },
        }),
    );
    if (parsed.length === 0) return 0;
    const at = this.db.now().toISOString();
    const metrics = (u: Omit<UsageTotals, "calls">) => [
      u.inputTokens,
      u.cachedInputTokens,
      u.outputTokens,
      u.costUsd,
      u.latencyMs,
    ];
    return this.db.write(function* () {
      // The records, then the run's totals of those inserted (a record already stored adds nothing).
      const inserted = yield* allMany<{ role: Role; model: string } & Record<string, number>>(
        `INSERT INTO usage_records (id, run_id, role, model, input_tokens, cached_input_tokens, output_tokens,
           cost_usd, latency_ms, at)`,
        ["text", "text", "text", "text", "bigint", "bigint", "bigint", "float8", "float8", "text"],
        parsed.map((u) => [u.id ?? null, runId, u.role, u.model, ...metrics(u), u.at ?? at]),
        `ON CONFLICT DO NOTHING RETURNING role, model, input_tokens AS "inputTokens",
           cached_input_tokens AS "cachedInputTokens", output_tokens AS "outputTokens", cost_usd AS "costUsd",
           latency_ms AS "latencyMs"`,
      );
      const totals = new Map<string, { role: Role; model: string; sum: UsageTotals }>();
      for (const { role, model, ...row } of inserted) {
        const key = JSON.stringify([role, model]);
        const usage = { ...emptyUsageTotals(), ...numbers(row), calls: 1 };
        const total = totals.get(key);
        totals.set(key, { role, model, sum: total ? addUsage(total.sum, usage) : usage });
      }
      yield* runMany(
        `INSERT INTO usage_totals AS t (run_id, role, model, calls, input_tokens, cached_input_tokens, output_tokens,
           cost_usd, latency_ms)`,
        ["text", "text", "text", "int", "bigint", "bigint", "bigint", "float8", "float8"],
        [...totals.values()].map(({ role, model, sum }) => [runId, role, model, sum.calls, ...metrics(sum)]),
        `ON CONFLICT (run_id, role, model) DO UPDATE SET calls = t.calls + excluded.calls,
           input_tokens = t.input_tokens + excluded.input_tokens,
           cached_input_tokens = t.cached_input_tokens + excluded.cached_input_tokens,
           output_tokens = t.output_tokens + excluded.output_tokens, cost_usd = t.cost_usd + excluded.cost_usd,
           latency_ms = t.latency_ms + excluded.latency_ms`,
      );
      return inserted.length;
    });
  }

  async getUsageTotals(runId: string): Promise<UsageReport> {
    const rows = await this.db.run(() =>
      all<UsageTotals & { role: Role; model: string }>(
        `SELECT role, model, CAST(calls AS INTEGER) AS "calls",
           CAST(input_tokens AS DOUBLE PRECISION) AS "inputTokens",
           CAST(cached_input_tokens AS DOUBLE PRECISION) AS "cachedInputTokens",
           CAST(output_tokens AS DOUBLE PRECISION) AS "outputTokens", cost_usd AS "costUsd",
           latency_ms AS "latencyMs"
         FROM usage_totals WHERE run_id = ? ORDER BY role, model`,
        [runId],
      ),
    );
    const report: UsageReport = { runId, total: emptyUsageTotals(), byRole: {}, byModel: {} };
    for (const { role, model, ...totals } of rows) {
      report.total = addUsage(report.total, totals);
      report.byRole[role] = addUsage(report.byRole[role] ?? emptyUsageTotals(), totals);
      report.byModel[model] = addUsage(report.byModel[model] ?? emptyUsageTotals(), totals);
    }
    return report;
  }

  private where(filter: TrajectoryFilter): { where: string; params: unknown[] } {
    const { dialect } = this.db;
    const clauses: string[] = [];
    const params: unknown[] = [];
    const add = (clause: string, value: unknown) => {
      clauses.push(clause);
      params.push(value);
    };
    // With ids, the primary key finds the rows; SQLite's planner must not scan the run's index instead.
    if (filter.runId !== undefined)
      add(`${filter.ids === undefined ? "run_id" : dialect.noIndex("run_id")} = ?`, filter.runId);
    if (filter.epoch !== undefined) add("epoch = ?", filter.epoch);
    if (filter.step !== undefined) add("step = ?", filter.step);
    if (filter.groupId !== undefined) add("group_id = ?", filter.groupId);
    if (filter.taskId !== undefined) add("task_id = ?", filter.taskId);
    if (filter.ids !== undefined) add(dialect.inList("id", "text"), filter.ids);
    return { where: clauses.length ? `WHERE ${clauses.join(" AND ")}` : "", params };
  }
}

/** Stored metrics as numbers (PostgreSQL returns bigint columns as strings). */
function numbers(row: Record<string, number | string>): Record<string, number> {
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)]));
}
