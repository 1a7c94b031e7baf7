import { mkdirSync } from "node:fs";
import path from "node:path";
import {
  addUsage,
  type Experience,
  emptyUsageTotals,
  experienceIdSchema,
  formatZodIssues,
  type GateDecision,
  gateDecisionSchema,
  type LibrarySnapshot,
  type LibraryVersion,
  type Operation,
  type Role,
  type Run,
  runSchema,
  safeParseJson,
  TfgrpoError,
  type Trajectory,
  trajectorySchema,
  type UsageTotals,
  usageSchema,
} from "@tfgrpo/protocol";
import Database from "better-sqlite3";
import { z } from "zod";
import { BaseStore, checkDomain } from "../base-store.js";
import { toImportedExperience } from "../formats/imported-experience.js";
import type { ParsedLibraryFile } from "../formats/library-file.js";
import { canonicalExperience } from "../library/canonical-experience.js";
import { experienceId, experienceOrdinal, planOperations } from "../library/plan-operations.js";
import { referencedIds, validateOperations } from "../library/validate-operations.js";
import type {
  ApplyOptions,
  ApplyResult,
  DomainSummary,
  ImportOptions,
  ImportResult,
  RollbackOptions,
  RunFilter,
  RunPatch,
  SetVersionStateOptions,
  StatsDelta,
  StoreFaults,
  TrajectoryFilter,
  UsageRecord,
  UsageReport,
} from "../store.js";
import { migrations } from "./migrations.js";

export interface SqliteStoreOptions {
  /** A file path, or ":memory:" for a private in-memory database. */
  path: string;
  now?: () => Date;
  /** How long a writer waits for another process's write lock before failing with "conflict". Default 10 s. */
  busyTimeoutMs?: number;
  /** Fail instead of creating the file when it does not exist. */
  fileMustExist?: boolean;
}

interface DomainRow {
  domain: string;
  next_id: number;
  next_version: number;
  head_version: number | null;
}

interface VersionRow {
  domain: string;
  version: number;
  parent: number | null;
  state: LibraryVersion["state"];
  ops: string;
  gate: string | null;
  run_id: string | null;
  message: string | null;
  entry_count: number;
  created_at: string;
}

/** Entry rows are read as arrays (better-sqlite3 "raw" mode): several times faster than objects on 10k rows. */
type EntryRow = [
  rowId: number,
  ordinal: number,
  text: string,
  status: Experience["status"],
  scope: string | null,
  conflictGroup: string | null,
  provenance: string,
  history: string,
  createdAt: string,
  updatedAt: string,
  shown: number | null,
  success: number | null,
  sumDelta: number | null,
  lastUsedVersion: number | null,
];

const entryColumns = `r.row_id, r.ordinal, r.text, r.status, r.scope, r.conflict_group, r.provenance, r.history,
  r.created_at, r.updated_at, s.shown, s.success, s.sum_delta, s.last_used_version`;
const entryJoin = `FROM version_entries v
  JOIN experience_rows r ON r.row_id = v.row_id
  LEFT JOIN experience_stats s ON s.domain = v.domain AND s.ordinal = v.ordinal`;

const statsDeltaSchema = z.object({
  id: experienceIdSchema,
  shown: z.number().int().nonnegative().optional(),
  success: z.number().nonnegative().finite().optional(),
  sumDelta: z.number().finite().optional(),
  lastUsedVersion: z.number().int().nonnegative().nullable().optional(),
});

const usageRecordSchema = usageSchema.extend({
  id: z.string().min(1).optional(),
  at: z.string().optional(),
});

/**
 * The default backend: one SQLite file per workspace (WAL, so readers never block the writer), better-sqlite3.
 * Every write is one `BEGIN IMMEDIATE` transaction: it takes the write lock before reading what it depends on (head,
 * counters), so two processes writing the same file serialize instead of interleaving.
 */
export class SqliteStore extends BaseStore {
  readonly path: string;
  private readonly db: Database.Database;
  private readonly now: () => Date;
  private readonly busyTimeoutMs: number;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(options: SqliteStoreOptions) {
    super();
    this.path = options.path;
    this.now = options.now ?? (() => new Date());
    this.busyTimeoutMs = options.busyTimeoutMs ?? 10_000;
    if (options.path !== ":memory:" && !options.fileMustExist) {
      mkdirSync(path.dirname(path.resolve(options.path)), { recursive: true });
    }
    try {
      this.db = new Database(options.path, { fileMustExist: options.fileMustExist ?? false });
    } catch (error) {
      throw new TfgrpoError(
        "not_found",
        `cannot open database ${options.path}: ${(error as Error).message}`,
        {
          cause: error,
          details: { path: options.path },
        },
      );
    }
    this.db.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
    if (options.path !== ":memory:") this.db.pragma("journal_mode = WAL");
    // NORMAL is durable across application crashes in WAL mode; only an OS crash may lose the last commits.
    this.db.pragma("synchronous = NORMAL");
    this.db.pragma("foreign_keys = ON");
  }

  async setup(): Promise<void> {
    this.write(() => {
      this.db.exec(`CREATE TABLE IF NOT EXISTS schema_version (
        version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)`);
      const current =
        (this.db.prepare("SELECT max(version) AS v FROM schema_version").get() as { v: number | null }).v ??
        0;
      const latest = migrations.at(-1)!.version;
      if (current > latest) {
        throw new TfgrpoError(
          "invalid_config",
          `${this.path}: database schema version ${current} is newer than this tfgrpo understands (${latest}); upgrade tfgrpo`,
          { details: { path: this.path, schemaVersion: current, supported: latest } },
        );
      }
      for (const migration of migrations) {
        if (migration.version <= current) continue;
        this.db.exec(migration.sql);
        this.db
          .prepare("INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)")
          .run(migration.version, migration.description, this.now().toISOString());
      }
    });
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  /** The schema version and SQLite's integrity check, for tests and `doctor`-style commands. */
  inspect(): { schemaVersion: number; integrity: string; journalMode: string } {
    const schemaVersion = (
      this.db.prepare("SELECT max(version) AS v FROM schema_version").get() as { v: number }
    ).v;
    const integrity = this.db.pragma("integrity_check", { simple: true }) as string;
    const journalMode = this.db.pragma("journal_mode", { simple: true }) as string;
    return { schemaVersion, integrity, journalMode };
  }

  // --- libraries ------------------------------------------------------------------------------------------------

  async applyOperations(
    domain: string,
    ops: readonly Operation[],
    options: ApplyOptions,
  ): Promise<ApplyResult> {
    checkDomain(domain);
    const now = (options.now ?? this.now()).toISOString();
    const gate = options.gate === undefined ? undefined : parseGate(options.gate);
    return this.write(() => {
      const current = this.ensureDomain(domain, now);
      const parent = options.parent;
      const parentRow = parent === null ? null : this.requireVersionRow(domain, parent);
      if (options.state === "committed" && !options.force && parent !== current.head_version) {
        throw staleParentError(domain, null, parent, current.head_version);
      }
      const wanted = referencedIds(ops).filter((id) => experienceIdSchema.safeParse(id).success);
      const parentEntries =
        parent === null ? new Map<string, Experience>() : this.loadEntries(domain, parent, wanted);
      const lookup = (id: string) => parentEntries.get(id);
      const validOps = validateOperations({ domain, parent, ops, lookup });
      const version = current.next_version;
      const plan = planOperations({
        domain,
        version,
        nextOrdinal: current.next_id,
        runId: options.runId ?? null,
        now,
        ops: validOps,
        lookup,
      });
      this.insertVersion({
        domain,
        version,
        parent,
        state: options.state,
        ops: validOps,
        gate,
        runId: options.runId ?? null,
        message: options.message,
        entryCount: (parentRow?.entry_count ?? 0) + plan.created.length,
        now,
      });
      if (parent !== null) this.copyEntries(domain, parent, version);
      for (const entry of plan.changed) this.writeEntry(domain, version, entry);
      for (const { id, stats } of plan.initialStats) {
        this.stmt(
          `INSERT OR REPLACE INTO experience_stats (domain, ordinal, shown, success, sum_delta, last_used_version)
           VALUES (?, ?, ?, ?, ?, ?)`,
        ).run(
          domain,
          experienceOrdinal(id),
          stats.shown,
          stats.success,
          stats.sumDelta,
          stats.lastUsedVersion,
        );
      }
      this.finishVersion(domain, version, plan.nextOrdinal, options.state === "committed", options.faults);
      return {
        version: toLibraryVersion(this.requireVersionRow(domain, version)),
        createdIds: plan.created.map((c) => c.id),
        created: plan.created,
      };
    });
  }

  async setVersionState(
    domain: string,
    version: number,
    state: "committed" | "rejected",
    gate?: GateDecision,
    options: SetVersionStateOptions = {},
  ): Promise<LibraryVersion> {
    checkDomain(domain);
    const now = (options.now ?? this.now()).toISOString();
    const gateJson = gate === undefined ? null : JSON.stringify(parseGate(gate));
    return this.write(() => {
      const row = this.requireVersionRow(domain, version);
      // Setting the state a version already has is a no-op, so a resumed run can repeat its last step safely.
      if (row.state === state) return toLibraryVersion(row);
      if (row.state !== "proposed") {
        throw new TfgrpoError(
          "conflict",
          `cannot mark ${domain} v${version} ${state}: it is already ${row.state} (versions are immutable; apply again)`,
          { details: { domain, version, state: row.state } },
        );
      }
      if (state === "committed") {
        const head = this.requireDomain(domain).head_version;
        if (!options.force && row.parent !== head) throw staleParentError(domain, version, row.parent, head);
      }
      this.stmt(
        `UPDATE library_versions SET state = ?, gate = coalesce(?, gate), state_changed_at = ?
         WHERE domain = ? AND version = ?`,
      ).run(state, gateJson, now, domain, version);
      if (state === "committed") {
        this.stmt("UPDATE library_domains SET head_version = ? WHERE domain = ?").run(version, domain);
      }
      return toLibraryVersion(this.requireVersionRow(domain, version));
    });
  }

  async getHead(domain: string): Promise<LibrarySnapshot | null> {
    checkDomain(domain);
    // One read transaction: the head number and its entries come from the same database snapshot.
    return this.read(() => {
      const head = this.domainRow(domain)?.head_version ?? null;
      return head === null ? null : this.snapshot(domain, head);
    });
  }

  async getHeadVersion(domain: string): Promise<number | null> {
    checkDomain(domain);
    return this.domainRow(domain)?.head_version ?? null;
  }

  async getVersion(domain: string, version: number): Promise<LibrarySnapshot | null> {
    checkDomain(domain);
    return this.read(() => (this.versionRow(domain, version) ? this.snapshot(domain, version) : null));
  }

  async getVersionInfo(domain: string, version: number): Promise<LibraryVersion | null> {
    checkDomain(domain);
    const row = this.versionRow(domain, version);
    return row ? toLibraryVersion(row) : null;
  }

  async listVersions(domain: string): Promise<LibraryVersion[]> {
    checkDomain(domain);
    const rows = this.stmt("SELECT * FROM library_versions WHERE domain = ? ORDER BY version").all(
      domain,
    ) as VersionRow[];
    return rows.map(toLibraryVersion);
  }

  async listDomains(): Promise<DomainSummary[]> {
    return this.read(() => {
      const rows = this.stmt(
        `SELECT d.domain, d.next_id, d.head_version,
           (SELECT count(*) FROM library_versions v WHERE v.domain = d.domain) AS versions,
           (SELECT max(version) FROM library_versions v WHERE v.domain = d.domain) AS latest
         FROM library_domains d ORDER BY d.domain`,
      ).all() as Array<{
        domain: string;
        next_id: number;
        head_version: number | null;
        versions: number;
        latest: number | null;
      }>;
      return rows.map((row) => {
        const headCounts = { candidate: 0, active: 0, probation: 0, archived: 0 };
        if (row.head_version !== null) {
          const counts = this.stmt(
            `SELECT r.status, count(*) AS n FROM version_entries v JOIN experience_rows r ON r.row_id = v.row_id
             WHERE v.domain = ? AND v.version = ? GROUP BY r.status`,
          ).all(row.domain, row.head_version) as Array<{ status: Experience["status"]; n: number }>;
          for (const { status, n } of counts) headCounts[status] = n;
        }
        return {
          domain: row.domain,
          head: row.head_version,
          latestVersion: row.latest,
          versions: row.versions,
          nextId: row.next_id,
          headCounts,
        };
      });
    });
  }

  async rollback(domain: string, toVersion: number, options: RollbackOptions = {}): Promise<LibraryVersion> {
    checkDomain(domain);
    const now = (options.now ?? this.now()).toISOString();
    return this.write(() => {
      const current = this.requireDomain(domain);
      const target = this.requireVersionRow(domain, toVersion);
      if (target.state !== "committed") {
        throw new TfgrpoError(
          "invalid_input",
          `cannot roll ${domain} back to v${toVersion}: it was ${target.state}, never committed`,
          { details: { domain, version: toVersion, state: target.state } },
        );
      }
      const version = current.next_version;
      this.insertVersion({
        domain,
        version,
        parent: current.head_version,
        state: "committed",
        ops: [],
        gate: undefined,
        runId: options.runId ?? null,
        message: options.message ?? `rollback to v${toVersion}`,
        entryCount: target.entry_count,
        now,
      });
      this.copyEntries(domain, toVersion, version);
      // The id counter stays where it is: ids handed out after the target version are never reused.
      this.finishVersion(domain, version, current.next_id, true, options.faults);
      return toLibraryVersion(this.requireVersionRow(domain, version));
    });
  }

  async updateStats(domain: string, deltas: readonly StatsDelta[]): Promise<number> {
    checkDomain(domain);
    const problems: string[] = [];
    const parsed = deltas.map((delta, index) => {
      const result = statsDeltaSchema.safeParse(delta);
      if (!result.success) problems.push(`deltas[${index}]: ${formatZodIssues(result.error.issues)}`);
      return result.data;
    });
    if (problems.length > 0) {
      throw new TfgrpoError("invalid_input", `invalid stats for ${domain}: ${problems.join("; ")}`, {
        details: { domain, problems },
      });
    }
    const valid = parsed as Array<z.infer<typeof statsDeltaSchema>>;
    return this.write(() => {
      const ordinals = [...new Set(valid.map((d) => experienceOrdinal(d.id)))];
      const known = new Set(
        (
          this.stmt(
            `SELECT DISTINCT ordinal FROM experience_rows
             WHERE domain = ? AND ordinal IN (SELECT value FROM json_each(?))`,
          ).all(domain, JSON.stringify(ordinals)) as Array<{ ordinal: number }>
        ).map((r) => r.ordinal),
      );
      const unknown = ordinals.filter((o) => !known.has(o)).map(experienceId);
      if (unknown.length > 0) {
        throw new TfgrpoError(
          "not_found",
          `cannot update stats of ${domain}: unknown ids ${unknown.join(", ")}; nothing updated`,
          { details: { domain, unknown } },
        );
      }
      const upsert = this.stmt(
        `INSERT INTO experience_stats (domain, ordinal, shown, success, sum_delta, last_used_version)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (domain, ordinal) DO UPDATE SET
           shown = shown + excluded.shown,
           success = success + excluded.success,
           sum_delta = sum_delta + excluded.sum_delta,
           last_used_version = CASE
             WHEN excluded.last_used_version IS NULL THEN last_used_version
             WHEN last_used_version IS NULL THEN excluded.last_used_version
             ELSE max(last_used_version, excluded.last_used_version) END`,
      );
      for (const delta of valid) {
        upsert.run(
          domain,
          experienceOrdinal(delta.id),
          delta.shown ?? 0,
          delta.success ?? 0,
          delta.sumDelta ?? 0,
          delta.lastUsedVersion ?? null,
        );
      }
      return ordinals.length;
    });
  }

  protected async writeImport(
    domain: string,
    parsed: ParsedLibraryFile,
    options: ImportOptions & { file: string },
  ): Promise<ImportResult> {
    const now = (options.now ?? this.now()).toISOString();
    const runId = options.runId ?? null;
    return this.write(() => {
      const current = this.ensureDomain(domain, now);
      // Keeping the file's ids is only safe where no id was ever handed out: ids are never reused.
      const preservedIds = current.next_id === 0;
      const version = current.next_version;
      const parent = current.head_version;
      const parentRow = parent === null ? null : this.requireVersionRow(domain, parent);
      let nextOrdinal = current.next_id;
      const ids: Record<string, string> = {};
      const experiences = parsed.entries.map((entry) => {
        const id = preservedIds ? entry.id : experienceId(nextOrdinal++);
        ids[entry.id] = id;
        return toImportedExperience(entry, {
          domain,
          id,
          version,
          runId,
          now,
          file: options.file,
          defaultStatus: options.defaultStatus ?? "active",
        });
      });
      if (preservedIds) {
        nextOrdinal = experiences.reduce((max, e) => Math.max(max, experienceOrdinal(e.id) + 1), 0);
      }
      const ops: Operation[] = parsed.entries.map((entry, index) => {
        const e = experiences[index]!;
        return {
          op: "add",
          text: e.text,
          status: e.status,
          ...(e.scope ? { scope: e.scope } : {}),
          ...(e.conflictGroup !== undefined ? { conflictGroup: e.conflictGroup } : {}),
          reason: `imported from ${path.basename(options.file)} (${entry.id})`,
        };
      });
      this.insertVersion({
        domain,
        version,
        parent,
        state: "committed",
        ops,
        gate: undefined,
        runId,
        message:
          options.message ??
          `import of ${path.basename(options.file)}: ${experiences.length} entries${preservedIds ? " (ids kept)" : " (new ids)"}`,
        entryCount: (parentRow?.entry_count ?? 0) + experiences.length,
        now,
      });
      if (parent !== null) this.copyEntries(domain, parent, version);
      const setStats = this.stmt(
        `INSERT OR REPLACE INTO experience_stats (domain, ordinal, shown, success, sum_delta, last_used_version)
         VALUES (?, ?, ?, ?, ?, ?)`,
      );
      for (const experience of experiences) {
        this.writeEntry(domain, version, experience);
        const s = experience.stats;
        if (s.shown !== 0 || s.success !== 0 || s.sumDelta !== 0 || s.lastUsedVersion !== null) {
          setStats.run(
            domain,
            experienceOrdinal(experience.id),
            s.shown,
            s.success,
            s.sumDelta,
            s.lastUsedVersion,
          );
        }
      }
      this.finishVersion(domain, version, nextOrdinal, true, options.faults);
      return {
        version: toLibraryVersion(this.requireVersionRow(domain, version)),
        format: parsed.format,
        ids,
        preservedIds,
        entries: experiences.length,
      };
    });
  }

  // --- runs, trajectories, usage, run state ---------------------------------------------------------------------

  async createRun(run: Run): Promise<Run> {
    const parsed = parseRecord(runSchema, run, `run ${run?.id}`);
    const result = this.stmt(
      `INSERT INTO runs (id, kind, domain, status, started_at, record) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO NOTHING`,
    ).run(parsed.id, parsed.kind, parsed.domain, parsed.status, parsed.startedAt, JSON.stringify(parsed));
    if (result.changes === 0) {
      throw new TfgrpoError("conflict", `run ${parsed.id} already exists`, { details: { runId: parsed.id } });
    }
    return parsed;
  }

  async updateRun(id: string, patch: RunPatch): Promise<Run> {
    return this.write(() => {
      const current = this.runRow(id);
      if (!current) throw new TfgrpoError("not_found", `no run ${id}`, { details: { runId: id } });
      const next = parseRecord(runSchema, { ...current, ...patch, id }, `run ${id}`);
      this.stmt(
        "UPDATE runs SET kind = ?, domain = ?, status = ?, started_at = ?, record = ? WHERE id = ?",
      ).run(next.kind, next.domain, next.status, next.startedAt, JSON.stringify(next), id);
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
    const rows = this.stmt(sql).all(...params, filter.limit ?? -1) as Array<{ id: string; record: string }>;
    return rows.map((row) => readStoredJson(row.record, `runs row ${row.id}`, runSchema));
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
    const storedAt = this.now().toISOString();
    return this.write(() => {
      const upsert = this.stmt(
        `INSERT INTO trajectories (id, run_id, task_id, group_id, attempt, epoch, step, reward, record, stored_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET run_id = excluded.run_id, task_id = excluded.task_id,
           group_id = excluded.group_id, attempt = excluded.attempt, epoch = excluded.epoch, step = excluded.step,
           reward = excluded.reward, record = excluded.record, stored_at = excluded.stored_at`,
      );
      for (const t of parsed as Trajectory[]) {
        upsert.run(
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
        );
      }
      return parsed.length;
    });
  }

  async getTrajectory(id: string): Promise<Trajectory | null> {
    const row = this.stmt("SELECT record FROM trajectories WHERE id = ?").get(id) as
      | { record: string }
      | undefined;
    return row ? readStoredJson<Trajectory>(row.record, `trajectories row ${id}`) : null;
  }

  async listTrajectories(filter: TrajectoryFilter): Promise<Trajectory[]> {
    const { where, params } = trajectoryWhere(filter);
    const rows = this.stmt(
      `SELECT id, record FROM trajectories ${where}
       ORDER BY epoch, step, group_id, attempt, id LIMIT ? OFFSET ?`,
    ).all(...params, filter.limit ?? -1, filter.offset ?? 0) as Array<{ id: string; record: string }>;
    return rows.map((row) => readStoredJson<Trajectory>(row.record, `trajectories row ${row.id}`));
  }

  async countTrajectories(filter: TrajectoryFilter): Promise<number> {
    const { where, params } = trajectoryWhere(filter);
    return (this.stmt(`SELECT count(*) AS n FROM trajectories ${where}`).get(...params) as { n: number }).n;
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
    const at = this.now().toISOString();
    return this.write(() => {
      const insert = this.stmt(
        `INSERT OR IGNORE INTO usage_records (id, run_id, role, model, input_tokens, cached_input_tokens,
           output_tokens, cost_usd, latency_ms, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      let inserted = 0;
      for (const u of parsed as Array<z.infer<typeof usageRecordSchema>>) {
        inserted += insert.run(
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
      }
      return inserted;
    });
  }

  async getUsageTotals(runId: string): Promise<UsageReport> {
    const rows = this.stmt(
      `SELECT role, model, count(*) AS calls, sum(input_tokens) AS inputTokens,
         sum(cached_input_tokens) AS cachedInputTokens, sum(output_tokens) AS outputTokens,
         sum(cost_usd) AS costUsd, sum(latency_ms) AS latencyMs
       FROM usage_records WHERE run_id = ? GROUP BY role, model ORDER BY role, model`,
    ).all(runId) as Array<UsageTotals & { role: Role; model: string }>;
    const report: UsageReport = { runId, total: emptyUsageTotals(), byRole: {}, byModel: {} };
    for (const { role, model, ...totals } of rows) {
      report.total = addUsage(report.total, totals);
      report.byRole[role] = addUsage(report.byRole[role] ?? emptyUsageTotals(), totals);
      report.byModel[model] = addUsage(report.byModel[model] ?? emptyUsageTotals(), totals);
    }
    return report;
  }

  async putRunState(runId: string, key: string, value: unknown): Promise<void> {
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch (error) {
      throw new TfgrpoError(
        "invalid_input",
        `run state ${runId}/${key}: not JSON: ${(error as Error).message}`,
        {
          details: { runId, key },
        },
      );
    }
    if (json === undefined) {
      throw new TfgrpoError("invalid_input", `run state ${runId}/${key}: value is not JSON (undefined)`, {
        details: { runId, key },
      });
    }
    this.stmt("INSERT OR REPLACE INTO run_state (run_id, key, value, updated_at) VALUES (?, ?, ?, ?)").run(
      runId,
      key,
      json,
      this.now().toISOString(),
    );
  }

  async getRunState(runId: string, key: string): Promise<unknown> {
    const row = this.stmt("SELECT value FROM run_state WHERE run_id = ? AND key = ?").get(runId, key) as
      | { value: string }
      | undefined;
    return row ? readStoredJson(row.value, `run_state ${runId}/${key}`) : undefined;
  }

  async deleteRunState(runId: string, key: string): Promise<boolean> {
    return this.stmt("DELETE FROM run_state WHERE run_id = ? AND key = ?").run(runId, key).changes > 0;
  }

  async listRunStateKeys(runId: string): Promise<string[]> {
    const rows = this.stmt("SELECT key FROM run_state WHERE run_id = ? ORDER BY key").all(runId) as Array<{
      key: string;
    }>;
    return rows.map((r) => r.key);
  }

  // --- internals ------------------------------------------------------------------------------------------------

  private stmt(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private entryStmt(where: string): Database.Statement {
    const sql = `SELECT ${entryColumns} ${entryJoin} WHERE ${where} ORDER BY v.ordinal`;
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql).raw(true);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private write<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn).immediate();
    } catch (error) {
      if ((error as { code?: string }).code === "SQLITE_BUSY") {
        throw new TfgrpoError(
          "conflict",
          `${this.path}: another process held the write lock for more than ${this.busyTimeoutMs} ms; try again`,
          { cause: error, details: { path: this.path } },
        );
      }
      throw error;
    }
  }

  private read<T>(fn: () => T): T {
    return this.db.transaction(fn).deferred();
  }

  private domainRow(domain: string): DomainRow | undefined {
    return this.stmt(
      "SELECT domain, next_id, next_version, head_version FROM library_domains WHERE domain = ?",
    ).get(domain) as DomainRow | undefined;
  }

  private requireDomain(domain: string): DomainRow {
    const row = this.domainRow(domain);
    if (!row) throw new TfgrpoError("not_found", `no library ${domain}`, { details: { domain } });
    return row;
  }

  private ensureDomain(domain: string, now: string): DomainRow {
    this.stmt("INSERT OR IGNORE INTO library_domains (domain, created_at) VALUES (?, ?)").run(domain, now);
    return this.domainRow(domain)!;
  }

  private versionRow(domain: string, version: number): VersionRow | undefined {
    return this.stmt("SELECT * FROM library_versions WHERE domain = ? AND version = ?").get(
      domain,
      version,
    ) as VersionRow | undefined;
  }

  private requireVersionRow(domain: string, version: number): VersionRow {
    const row = this.versionRow(domain, version);
    if (!row) {
      throw new TfgrpoError("not_found", `library ${domain} has no version ${version}`, {
        details: { domain, version },
      });
    }
    return row;
  }

  private snapshot(domain: string, version: number): LibrarySnapshot {
    const rows = this.entryStmt("v.domain = ? AND v.version = ?").all(domain, version) as EntryRow[];
    return { domain, version, experiences: rows.map((row) => toExperience(domain, row)) };
  }

  private loadEntries(domain: string, version: number, ids: readonly string[]): Map<string, Experience> {
    if (ids.length === 0) return new Map();
    const rows = this.entryStmt(
      "v.domain = ? AND v.version = ? AND v.ordinal IN (SELECT value FROM json_each(?))",
    ).all(domain, version, JSON.stringify(ids.map(experienceOrdinal))) as EntryRow[];
    return new Map(rows.map((row) => [experienceId(row[1]), toExperience(domain, row)]));
  }

  private insertVersion(v: {
    domain: string;
    version: number;
    parent: number | null;
    state: LibraryVersion["state"];
    ops: readonly Operation[];
    gate: GateDecision | undefined;
    runId: string | null;
    message: string | undefined;
    entryCount: number;
    now: string;
  }): void {
    this.stmt(
      `INSERT INTO library_versions (domain, version, parent, state, ops, gate, run_id, message, entry_count,
         created_at, state_changed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      v.domain,
      v.version,
      v.parent,
      v.state,
      JSON.stringify(v.ops),
      v.gate === undefined ? null : JSON.stringify(v.gate),
      v.runId,
      v.message ?? null,
      v.entryCount,
      v.now,
      v.state === "proposed" ? null : v.now,
    );
  }

  /** The new version starts as a copy of the references of `from`: unchanged entries share their rows. */
  private copyEntries(domain: string, from: number, to: number): void {
    this.stmt(
      `INSERT INTO version_entries (domain, version, ordinal, row_id)
       SELECT domain, ?, ordinal, row_id FROM version_entries WHERE domain = ? AND version = ?`,
    ).run(to, domain, from);
  }

  private writeEntry(domain: string, version: number, entry: Experience): void {
    const e = canonicalExperience(entry);
    const rowId = this.stmt(
      `INSERT INTO experience_rows (domain, ordinal, text, status, scope, conflict_group, provenance, history,
         created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      domain,
      experienceOrdinal(e.id),
      e.text,
      e.status,
      e.scope === undefined ? null : JSON.stringify(e.scope),
      e.conflictGroup ?? null,
      JSON.stringify(e.provenance),
      JSON.stringify(e.history),
      e.createdAt,
      e.updatedAt,
    ).lastInsertRowid;
    this.stmt(
      "INSERT OR REPLACE INTO version_entries (domain, version, ordinal, row_id) VALUES (?, ?, ?, ?)",
    ).run(domain, version, experienceOrdinal(e.id), rowId);
  }

  private finishVersion(
    domain: string,
    version: number,
    nextId: number,
    commit: boolean,
    faults: StoreFaults | undefined,
  ): void {
    faults?.afterRows?.();
    this.stmt(
      `UPDATE library_domains SET next_id = ?, next_version = ?,
         head_version = CASE WHEN ? THEN ? ELSE head_version END WHERE domain = ?`,
    ).run(nextId, version + 1, commit ? 1 : 0, version, domain);
  }

  private runRow(id: string): Run | null {
    const row = this.stmt("SELECT record FROM runs WHERE id = ?").get(id) as { record: string } | undefined;
    return row ? readStoredJson(row.record, `runs row ${id}`, runSchema) : null;
  }
}

function toExperience(domain: string, row: EntryRow): Experience {
  const [rowId, ordinal, text, status, scope, conflictGroup, provenance, history, createdAt, updatedAt] = row;
  const where = `experience_rows row ${rowId}`;
  return {
    id: experienceId(ordinal),
    domain,
    text,
    status,
    ...(scope !== null ? { scope: readStoredJson<Experience["scope"]>(scope, `${where} scope`) } : {}),
    ...(conflictGroup !== null ? { conflictGroup } : {}),
    stats: { shown: row[10] ?? 0, success: row[11] ?? 0, sumDelta: row[12] ?? 0, lastUsedVersion: row[13] },
    provenance: readStoredJson(provenance, `${where} provenance`),
    history: readStoredJson(history, `${where} history`),
    createdAt,
    updatedAt,
  };
}

function toLibraryVersion(row: VersionRow): LibraryVersion {
  const where = `library_versions ${row.domain} v${row.version}`;
  return {
    domain: row.domain,
    version: row.version,
    parent: row.parent,
    ops: readStoredJson(row.ops, `${where} ops`),
    createdAt: row.created_at,
    state: row.state,
    ...(row.gate !== null ? { gate: readStoredJson<GateDecision>(row.gate, `${where} gate`) } : {}),
    runId: row.run_id,
    ...(row.message !== null ? { message: row.message } : {}),
  };
}

function staleParentError(
  domain: string,
  version: number | null,
  parent: number | null,
  head: number | null,
): TfgrpoError {
  const name = (v: number | null) => (v === null ? "the empty library" : `v${v}`);
  const what = version === null ? "cannot commit new version" : `cannot commit v${version}`;
  return new TfgrpoError(
    "conflict",
    `${what} of ${domain}: it is based on ${name(parent)} but the head is now ${name(head)}; ` +
      "re-apply on the head, or force the commit",
    { details: { domain, version, parent, head } },
  );
}

function parseGate(gate: GateDecision): GateDecision {
  return parseRecord(gateDecisionSchema, gate, "gate decision");
}

function parseRecord<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new TfgrpoError("invalid_input", `invalid ${what}: ${formatZodIssues(result.error.issues)}`, {
      details: { what },
    });
  }
  return result.data;
}

/** Stored JSON is ours, but a file can be damaged: a bad value names the table, row and field. */
function readStoredJson<T>(text: string, where: string, schema?: z.ZodType<T>): T {
  const parsed = safeParseJson(text, schema);
  if (!parsed.success) {
    throw new TfgrpoError("internal", `corrupt stored value in ${where}: ${parsed.error}`, {
      details: { where },
    });
  }
  return parsed.value;
}

function trajectoryWhere(filter: TrajectoryFilter): { where: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, value: unknown) => {
    clauses.push(clause);
    params.push(value);
  };
  if (filter.runId !== undefined) add("run_id = ?", filter.runId);
  if (filter.epoch !== undefined) add("epoch = ?", filter.epoch);
  if (filter.step !== undefined) add("step = ?", filter.step);
  if (filter.groupId !== undefined) add("group_id = ?", filter.groupId);
  if (filter.taskId !== undefined) add("task_id = ?", filter.taskId);
  if (filter.ids !== undefined) add("id IN (SELECT value FROM json_each(?))", JSON.stringify(filter.ids));
  return { where: clauses.length ? `WHERE ${clauses.join(" AND ")}` : "", params };
}
