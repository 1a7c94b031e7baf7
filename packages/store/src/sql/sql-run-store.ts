import { type Run, runSchema, TfgrpoError } from "@tfgrpo/protocol";
import { runStateJson } from "../run-state-json.js";
import type { RunFilter, RunPatch, RunStore } from "../run-store.js";
import { all, get, run, type SqlPort } from "./sql-port.js";
import { parseRecord, readStoredJson } from "./stored-json.js";

const readRun = (row: { record: string }, id: string) =>
  readStoredJson(row.record, `runs row ${id}`, runSchema);

/** Runs and their durable state (`runs`, `run_state`) of a SQL store. */
export class SqlRunStore implements RunStore {
  constructor(private readonly db: SqlPort) {}

  async createRun(record: Run): Promise<Run> {
    const parsed = parseRecord(runSchema, record, `run ${record?.id}`);
    const inserted = await this.db.run(() =>
      run(
        `INSERT INTO runs (id, kind, domain, status, started_at, record) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO NOTHING`,
        [parsed.id, parsed.kind, parsed.domain, parsed.status, parsed.startedAt, JSON.stringify(parsed)],
      ),
    );
    if (inserted === 0) {
      throw new TfgrpoError("conflict", `run ${parsed.id} already exists`, { details: { runId: parsed.id } });
    }
    return parsed;
  }

  async updateRun(id: string, patch: RunPatch): Promise<Run> {
    const { forUpdate } = this.db.dialect;
    return this.db.write(function* () {
      const row = yield* get<{ record: string }>(`SELECT record FROM runs WHERE id = ?${forUpdate}`, [id]);
      if (!row) throw new TfgrpoError("not_found", `no run ${id}`, { details: { runId: id } });
      const next = parseRecord(runSchema, { ...readRun(row, id), ...patch, id }, `run ${id}`);
      yield* run(
        "UPDATE runs SET kind = ?, domain = ?, status = ?, started_at = ?, record = ? WHERE id = ?",
        [next.kind, next.domain, next.status, next.startedAt, JSON.stringify(next), id],
      );
      return next;
    });
  }

  async getRun(id: string): Promise<Run | null> {
    const row = await this.db.run(() =>
      get<{ record: string }>("SELECT record FROM runs WHERE id = ?", [id]),
    );
    return row ? readRun(row, id) : null;
  }

  async listRuns(filter: RunFilter = {}): Promise<Run[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    for (const column of ["kind", "domain", "status"] as const) {
      if (filter[column] === undefined) continue;
      where.push(`${column} = ?`);
      params.push(filter[column]);
    }
    const text = `SELECT id, record FROM runs ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
      ORDER BY started_at DESC, id DESC LIMIT ?`;
    const rows = await this.db.run(() =>
      all<{ id: string; record: string }>(text, [...params, filter.limit ?? this.db.dialect.noLimit]),
    );
    return rows.map((row) => readRun(row, row.id));
  }

  async putRunState(runId: string, key: string, value: unknown): Promise<void> {
    const json = runStateJson(runId, key, value);
    await this.db.run(() =>
      run(
        `INSERT INTO run_state (run_id, key, value, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (run_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        [runId, key, json, this.db.now().toISOString()],
      ),
    );
  }

  async getRunState(runId: string, key: string): Promise<unknown> {
    const row = await this.db.run(() =>
      get<{ value: string }>("SELECT value FROM run_state WHERE run_id = ? AND key = ?", [runId, key]),
    );
    return row ? readStoredJson(row.value, `run_state ${runId}/${key}`) : undefined;
  }

  async deleteRunState(runId: string, key: string): Promise<boolean> {
    const deleted = await this.db.run(() =>
      run("DELETE FROM run_state WHERE run_id = ? AND key = ?", [runId, key]),
    );
    return deleted > 0;
  }

  async listRunStateKeys(runId: string): Promise<string[]> {
    const rows = await this.db.run(() =>
      all<{ key: string }>("SELECT key FROM run_state WHERE run_id = ? ORDER BY key", [runId]),
    );
    return rows.map((r) => r.key);
  }
}
