import { type Run, runSchema, TfgrpoError } from "@tfgrpo/protocol";
import { runStateJson } from "../run-state-json.js";
import type { RunFilter, RunPatch, RunStore } from "../run-store.js";
import type { SqliteConnection } from "./sqlite-connection.js";
import { parseRecord, readStoredJson } from "./stored-json.js";

/** Runs and their durable state (`runs`, `run_state`) on the shared connection of a SQLite store. */
export class SqliteRunStore implements RunStore {
  private readonly connection: SqliteConnection;

  constructor(connection: SqliteConnection) {
    this.connection = connection;
  }

  async createRun(run: Run): Promise<Run> {
    const parsed = parseRecord(runSchema, run, `run ${run?.id}`);
    const result = this.connection
      .stmt(
        `INSERT INTO runs (id, kind, domain, status, started_at, record) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO NOTHING`,
      )
      .run(parsed.id, parsed.kind, parsed.domain, parsed.status, parsed.startedAt, JSON.stringify(parsed));
    if (result.changes === 0) {
      throw new TfgrpoError("conflict", `run ${parsed.id} already exists`, { details: { runId: parsed.id } });
    }
    return parsed;
  }

  async updateRun(id: string, patch: RunPatch): Promise<Run> {
    return this.connection.write(() => {
      const current = this.runRow(id);
      if (!current) throw new TfgrpoError("not_found", `no run ${id}`, { details: { runId: id } });
      const next = parseRecord(runSchema, { ...current, ...patch, id }, `run ${id}`);
      this.connection
        .stmt("UPDATE runs SET kind = ?, domain = ?, status = ?, started_at = ?, record = ? WHERE id = ?")
        .run(next.kind, next.domain, next.status, next.startedAt, JSON.stringify(next), id);
      return next;
    });
  }

  async getRun(id: string): Promise<Run | null> {
    return this.runRow(id);
  }

  async listRuns(filter: RunFilter = {}): Promise<Run[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    for (const column of ["kind", "domain", "status"] as const) {
      if (filter[column] === undefined) continue;
      where.push(`${column} = ?`);
      params.push(filter[column]);
    }
    const sql = `SELECT id, record FROM runs ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
      ORDER BY started_at DESC, id DESC LIMIT ?`;
    const rows = this.connection.stmt(sql).all(...params, filter.limit ?? -1) as Array<{
      id: string;
      record: string;
    }>;
    return rows.map((row) => readStoredJson(row.record, `runs row ${row.id}`, runSchema));
  }

  async putRunState(runId: string, key: string, value: unknown): Promise<void> {
    const json = runStateJson(runId, key, value);
    this.connection
      .stmt("INSERT OR REPLACE INTO run_state (run_id, key, value, updated_at) VALUES (?, ?, ?, ?)")
      .run(runId, key, json, this.connection.now().toISOString());
  }

  async getRunState(runId: string, key: string): Promise<unknown> {
    const row = this.connection
      .stmt("SELECT value FROM run_state WHERE run_id = ? AND key = ?")
      .get(runId, key) as { value: string } | undefined;
    return row ? readStoredJson(row.value, `run_state ${runId}/${key}`) : undefined;
  }

  async deleteRunState(runId: string, key: string): Promise<boolean> {
    return (
      this.connection.stmt("DELETE FROM run_state WHERE run_id = ? AND key = ?").run(runId, key).changes > 0
    );
  }

  async listRunStateKeys(runId: string): Promise<string[]> {
    const rows = this.connection
      .stmt("SELECT key FROM run_state WHERE run_id = ? ORDER BY key")
      .all(runId) as Array<{ key: string }>;
    return rows.map((r) => r.key);
  }

  private runRow(id: string): Run | null {
    const row = this.connection.stmt("SELECT record FROM runs WHERE id = ?").get(id) as
      | { record: string }
      | undefined;
    return row ? readStoredJson(row.record, `runs row ${id}`, runSchema) : null;
  }
}
