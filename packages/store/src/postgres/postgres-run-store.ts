import { type Run, runSchema, TfgrpoError } from "@tfgrpo/protocol";
import { runStateJson } from "../run-state-json.js";
import type { RunFilter, RunPatch, RunStore } from "../run-store.js";
import { parseRecord, readStoredJson } from "../sqlite/stored-json.js";
import type { PostgresConnection } from "./postgres-connection.js";

/** Runs and their durable state (`runs`, `run_state`) of a PostgreSQL store. */
export class PostgresRunStore implements RunStore {
  private readonly connection: PostgresConnection;

  constructor(connection: PostgresConnection) {
    this.connection = connection;
  }

  async createRun(run: Run): Promise<Run> {
    const parsed = parseRecord(runSchema, run, `run ${run?.id}`);
    const result = await this.connection.query(
      `INSERT INTO runs (id, kind, domain, status, started_at, record) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO NOTHING`,
      [parsed.id, parsed.kind, parsed.domain, parsed.status, parsed.startedAt, JSON.stringify(parsed)],
    );
    if (result.rowCount === 0) {
      throw new TfgrpoError("conflict", `run ${parsed.id} already exists`, { details: { runId: parsed.id } });
    }
    return parsed;
  }

  async updateRun(id: string, patch: RunPatch): Promise<Run> {
    return this.connection.transaction(async (sql) => {
      const row = (
        await sql.query<{ record: string }>("SELECT record FROM runs WHERE id = $1 FOR UPDATE", [id])
      ).rows[0];
      if (!row) throw new TfgrpoError("not_found", `no run ${id}`, { details: { runId: id } });
      const current = readStoredJson(row.record, `runs row ${id}`, runSchema);
      const next = parseRecord(runSchema, { ...current, ...patch, id }, `run ${id}`);
      await sql.query(
        "UPDATE runs SET kind = $1, domain = $2, status = $3, started_at = $4, record = $5 WHERE id = $6",
        [next.kind, next.domain, next.status, next.startedAt, JSON.stringify(next), id],
      );
      return next;
    });
  }

  async getRun(id: string): Promise<Run | null> {
    const row = (
      await this.connection.query<{ record: string }>("SELECT record FROM runs WHERE id = $1", [id])
    ).rows[0];
    return row ? readStoredJson(row.record, `runs row ${id}`, runSchema) : null;
  }

  async listRuns(filter: RunFilter = {}): Promise<Run[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    for (const column of ["kind", "domain", "status"] as const) {
      if (filter[column] === undefined) continue;
      params.push(filter[column]);
      where.push(`${column} = $${params.length}`);
    }
    params.push(filter.limit ?? null);
    const sql = `SELECT id, record FROM runs ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
      ORDER BY started_at DESC, id DESC LIMIT $${params.length}`;
    const rows = (await this.connection.query<{ id: string; record: string }>(sql, params)).rows;
    return rows.map((row) => readStoredJson(row.record, `runs row ${row.id}`, runSchema));
  }

  async putRunState(runId: string, key: string, value: unknown): Promise<void> {
    const json = runStateJson(runId, key, value);
    await this.connection.query(
      `INSERT INTO run_state (run_id, key, value, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (run_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      [runId, key, json, this.connection.now().toISOString()],
    );
  }

  async getRunState(runId: string, key: string): Promise<unknown> {
    const row = (
      await this.connection.query<{ value: string }>(
        "SELECT value FROM run_state WHERE run_id = $1 AND key = $2",
        [runId, key],
      )
    ).rows[0];
    return row ? readStoredJson(row.value, `run_state ${runId}/${key}`) : undefined;
  }

  async deleteRunState(runId: string, key: string): Promise<boolean> {
    const result = await this.connection.query("DELETE FROM run_state WHERE run_id = $1 AND key = $2", [
      runId,
      key,
    ]);
    return (result.rowCount ?? 0) > 0;
  }

  async listRunStateKeys(runId: string): Promise<string[]> {
    const rows = (
      await this.connection.query<{ key: string }>(
        "SELECT key FROM run_state WHERE run_id = $1 ORDER BY key",
        [runId],
      )
    ).rows;
    return rows.map((r) => r.key);
  }
}
