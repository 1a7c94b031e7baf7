import path from "node:path";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStore } from "../create-store.js";
import type { Store } from "../store.js";
import { at, seedThreeEntries } from "../testing/contract-helpers.js";
import { expectTfgrpoError, makeTrajectory } from "../testing/fixtures.js";
import { type PostgresServerHandle, startPostgresServer } from "../testing/postgres-server.js";
import { copyLibraries } from "./copy-libraries.js";
import { copyRecords } from "./copy-records.js";
import { recordTables } from "./record-tables.js";
import { sqliteRecordTables } from "./sqlite-record-tables-access.js";

let server: PostgresServerHandle;
let temporary: TemporaryDirectory;
beforeAll(async () => {
  server = await startPostgresServer();
  temporary = await temporaryDirectory("tfgrpo-db-copy-records-");
});
afterAll(async () => {
  await server?.stop();
  await temporary?.[Symbol.asyncDispose]();
});

const hour = 3_600_000;

/** A database with every kind of record: runs, state, trajectories, usage, selections, outcomes, contrasts, aggregates. */
async function buildRecords(store: Store): Promise<void> {
  await seedThreeEntries(store, "math");
  await store.createRun({
    id: "run-1",
    kind: "online",
    domain: "math",
    status: "running",
    config: { seed: 1 },
    startedAt: at(0).toISOString(),
    finishedAt: null,
  });
  await store.createRun({
    id: "run-2",
    kind: "learn",
    domain: "web",
    status: "finished",
    config: {},
    startedAt: at(1).toISOString(),
    finishedAt: at(2).toISOString(),
  });
  await store.putRunState("run-1", "cursor", { seq: 12, window: [1, 0, 1] });
  await store.putTrajectories([
    makeTrajectory({ id: "t1", runId: "run-1", reward: 0.5 }),
    makeTrajectory({ id: "t2", runId: "run-2" }),
  ]);
  const call = {
    model: "m",
    inputTokens: 10,
    cachedInputTokens: 2,
    outputTokens: 3,
    costUsd: 0.001,
    latencyMs: 40,
  };
  await store.recordUsage("run-1", [
    { ...call, role: "actor", id: "u1" },
    { ...call, role: "critic" },
  ]);
  await store.recordUsage("run-2", [{ ...call, role: "curator", id: "u3" }]);
  // 40 selections over 40 hours, varied in strata (contrasts and waiting reports), most reported.
  for (let i = 0; i < 40; i++) {
    const servedAt = new Date(at(0).getTime() + i * hour);
    const shown = i % 2 === 0;
    await store.recordSelection({
      selectionId: `s${String(i).padStart(2, "0")}`,
      domain: i % 5 === 4 ? "web" : "math",
      version: i % 5 === 4 ? null : 1,
      entryIds: i % 5 === 4 ? [] : shown ? ["G1", "G0"] : ["G1"],
      explorationIds: i % 5 === 4 || !shown ? [] : ["G0"],
      ...(i % 5 === 4 || shown ? {} : { withheldIds: ["G0"] }),
      ...(i % 5 === 4 ? {} : { stratum: `family:f${i % 3}` }),
      task: `task ${i} — ünïcode`,
      servedAt: servedAt.toISOString(),
      ...(i % 7 === 0 ? { meta: { arm: "canary", client: "c1" } } : {}),
      ...(i % 4 === 1 ? { client: "alice" } : {}),
    });
    if (i % 6 === 5) continue; // never reported
    await store.reportOutcome(
      {
        selectionId: `s${String(i).padStart(2, "0")}`,
        reward: (i % 4) / 3,
        success: i % 4 === 3,
        ...(i % 3 === 0
          ? { feedback: "check units", trajectory: [{ role: "assistant", content: `a${i}` }] }
          : {}),
        ...(i % 3 === 1 ? { summary: "tried twice" } : {}),
      },
      { now: new Date(servedAt.getTime() + 60_000) },
    );
  }
  await store.markConsumed("math", ["s00", "s01"], "reflection-1", { now: at(100) });
  await store.setClientExcluded("math", "mallory", true, { reason: "floods", now: at(101) });
  // The learner's state and pause flag (its lease is not copied).
  const lease = { holder: "learner-1", host: "h", pid: 7, ttlMs: 60_000, now: at(102) };
  await store.acquireLearnerLease("math", lease);
  await store.saveLearnerState("math", "learner-1", { cursor: 12, canary: null }, at(103));
  await store.setLearnerPaused("math", true, at(104));
  // Compact the older half: aggregates, expired selections.
  await store.applyRetention(
    { keepLatestOutcomes: 10, maxOutcomesPerDomain: 20, outcomeMaxAgeDays: 30, unreportedMaxAgeDays: 30 },
    new Date(at(0).getTime() + 45 * hour),
  );
}

/** Every record table of a SQLite file, as rows. */
async function dump(file: string) {
  const tables = sqliteRecordTables(file);
  const out: Record<string, unknown[]> = {};
  for (const table of recordTables) out[table.name] = await tables.read(table, null, 0, 1_000_000);
  await tables.close();
  return out;
}

describe("tfgrpo db copy (copyRecords)", () => {
  it("SQLite -> PostgreSQL -> SQLite keeps every run, trajectory, usage record, selection, outcome, contrast and aggregate", async () => {
    const first = path.join(temporary.path, "first.db");
    const last = path.join(temporary.path, "last.db");
    const pg = await server.createDatabase();
    const original = await createStore(first);
    await buildRecords(original);
    const stats = await original.outcomeStats("math");
    const outcomes = await original.listOutcomes({ domain: "math" });
    const head = await original.getHead("math");
    const exposure = await original.listEntryExposure("math");
    await original.close();
    const before = await dump(first);
    // Something of every table, so the comparison below means something.
    for (const table of recordTables) expect(before[table.name]!.length, table.name).toBeGreaterThan(0);

    await copyLibraries(first, pg);
    const there = await copyRecords(first, pg);
    expect(Object.fromEntries(there.map((t) => [t.table, t.rows]))).toEqual(
      Object.fromEntries(recordTables.map((t) => [t.name, before[t.name]!.length])),
    );
    await copyLibraries(pg, last);
    await copyRecords(pg, last);
    // Row for row, seq included.
    expect(await dump(last)).toEqual(before);

    for (const location of [pg, last]) {
      const store = await createStore(location);
      expect(await store.outcomeStats("math")).toEqual(stats);
      expect(await store.listOutcomes({ domain: "math" })).toEqual(outcomes);
      expect(await store.getHead("math")).toEqual(head);
      expect(await store.listEntryExposure("math")).toEqual(exposure);
      expect(await store.getRun("run-2")).toMatchObject({ status: "finished", domain: "web" });
      expect(await store.getRunState("run-1", "cursor")).toEqual({ seq: 12, window: [1, 0, 1] });
      expect((await store.getUsageTotals("run-1")).total.calls).toBe(2);
      // The next outcome's seq follows the copied ones.
      await store.recordSelection({
        selectionId: "after",
        domain: "math",
        version: 1,
        entryIds: ["G1"],
        explorationIds: [],
        task: "after the copy",
        servedAt: new Date().toISOString(),
      });
      const next = await store.reportOutcome({ selectionId: "after", reward: 1, success: true });
      expect(next.seq).toBeGreaterThan(outcomes.at(-1)!.seq);
      await store.close();
    }
  });

  it("refuses a target holding any of the records (nothing written), copies one domain's records alone", async () => {
    const file = path.join(temporary.path, "choose.db");
    const store = await createStore(file);
    await buildRecords(store);
    await store.close();
    const pg = await server.createDatabase();
    const web = await copyRecords(file, pg, { domains: ["web"] });
    expect(web.find((t) => t.table === "runs")!.rows).toBe(1);
    expect(web.find((t) => t.table === "trajectories")!.rows).toBe(1);
    expect(web.find((t) => t.table === "served_selections")!.rows).toBeGreaterThan(0);
    const target = await createStore(pg);
    const served = (await target.outcomeStats("web")).served;
    expect((await target.outcomeStats("math")).served).toBe(0);
    await target.close();
    const clash = await expectTfgrpoError(copyRecords(file, pg), "conflict");
    expect(clash.message).toMatch(/already holds 1 row\(s\) of runs .*nothing copied/);
    expect(clash.message).not.toContain(server.password);
    const after = await createStore(pg);
    expect((await after.outcomeStats("web")).served).toBe(served);
    expect((await after.outcomeStats("math")).served).toBe(0);
    await after.close();
  });
});
