import path from "node:path";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { migrations } from "./migrations.js";
import { SqliteStore } from "./sqlite-store.js";

describe("migration 9 on a database that already holds usage", () => {
  it("backfills the runs' usage totals from their records, and later records add to them", async () => {
    await using directory = await temporaryDirectory("tfgrpo-usage-totals-");
    const file = path.join(directory.path, "old.db");
    // A database as tfgrpo left it at schema version 4, with usage recorded.
    const raw = new Database(file);
    raw.exec(
      "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)",
    );
    for (const migration of migrations.filter((m) => m.version <= 4)) {
      raw.exec(migration.sql);
      raw
        .prepare("INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)")
        .run(migration.version, migration.description, "2026-11-01T00:00:00.000Z");
    }
    const insert = raw.prepare(
      `INSERT INTO usage_records (id, run_id, role, model, input_tokens, cached_input_tokens, output_tokens, cost_usd,
         latency_ms, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '2026-11-01T00:00:00.000Z')`,
    );
    insert.run("a1", "run-1", "actor", "m1", 100, 10, 20, 0.5, 300);
    insert.run("a2", "run-1", "actor", "m1", 200, 0, 40, 0.25, 100);
    insert.run("c1", "run-1", "critic", "m2", 50, 0, 5, 0.125, 50);
    insert.run("x1", "run-2", "actor", "m1", 7, 0, 1, 0, 1);
    raw.close();

    const store = new SqliteStore({ path: file });
    await store.setup();
    try {
      expect(store.inspect().schemaVersion).toBe(9);
      const report = await store.getUsageTotals("run-1");
      expect(report.byRole.actor).toEqual({
        calls: 2,
        inputTokens: 300,
        cachedInputTokens: 10,
        outputTokens: 60,
        costUsd: 0.75,
        latencyMs: 400,
      });
      expect(report.byModel.m2).toMatchObject({ calls: 1, inputTokens: 50 });
      expect(report.total.calls).toBe(3);
      expect((await store.getUsageTotals("run-2")).total).toMatchObject({ calls: 1, inputTokens: 7 });
      // A redelivered record (an id already stored) adds nothing; a new one adds to the backfilled totals.
      const call = {
        model: "m1",
        inputTokens: 1,
        cachedInputTokens: 0,
        outputTokens: 1,
        costUsd: 0,
        latencyMs: 1,
      };
      expect(await store.recordUsage("run-1", [{ ...call, id: "a1", role: "actor" }])).toBe(0);
      expect(await store.recordUsage("run-1", [{ ...call, id: "a3", role: "actor" }])).toBe(1);
      expect((await store.getUsageTotals("run-1")).byRole.actor).toMatchObject({
        calls: 3,
        inputTokens: 301,
      });
    } finally {
      await store.close();
    }
  });
});
