import path from "node:path";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSuite, writeSuiteJsonl } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { expect, it } from "vitest";
import { runCli } from "../testing/spawn-cli.js";
import { costsByEntry } from "./lesson-costs.js";
import { runLessonCosts } from "./stored-lesson-costs.js";

it("every entry's learning cost plus the cost of dropped proposals equals the run's critic and curator totals", async () => {
  await using temporary = await temporaryDirectory("tfgrpo-lesson-costs-");
  const directory = temporary.path;
  const train = path.join(directory, "train.jsonl");
  const val = path.join(directory, "val.jsonl");
  await writeSuiteJsonl(train, createSuite({ domain: "math", seed: 4, size: 8, split: "train" }));
  await writeSuiteJsonl(val, createSuite({ domain: "math", seed: 4, size: 6, split: "val" }));
  const db = path.join(directory, "tfgrpo.db");
  const runId = "lesson-costs";
  const learned = await runCli([
    ...["learn", "--sim", "--seed", "4", "--domain", "math", "--train", train, "--val", val],
    ...["--epochs", "1", "--batch-size", "4", "--group-size", "4", "--mode", "direct", "--no-trace"],
    ...["--db", db, "--run-id", runId],
  ]);
  expect(learned.code, learned.stderr).toBe(0);

  const store = await createStore(db, { mustExist: true });
  let entries: Map<string, { costUsd: number; steps: number }>;
  try {
    const usage = await store.getUsageTotals(runId);
    const records = await runLessonCosts(store, runId);
    expect(records.map((record) => record.step)).toEqual([1, 2]);
    entries = costsByEntry(records);
    const entryUsd = [...entries.values()].reduce((sum, entry) => sum + entry.costUsd, 0);
    const droppedUsd = records.reduce((sum, record) => sum + record.droppedUsd, 0);
    const learningUsd = (usage.byRole.critic?.costUsd ?? 0) + (usage.byRole.curator?.costUsd ?? 0);
    expect(learningUsd).toBeGreaterThan(0);
    expect(entryUsd + droppedUsd).toBeCloseTo(learningUsd, 10);
    // Some lessons were kept, and their entries are in the library's versions.
    expect(entries.size).toBeGreaterThan(0);
    const committed = records.filter((record) => record.committedVersion !== null);
    for (const record of committed) {
      const version = await store.getVersion("math", record.committedVersion!);
      const ids = new Set(version!.experiences.map((entry) => entry.id));
      for (const entry of record.entries) expect(ids.has(entry.id)).toBe(true);
    }
    // Each proposal carries its share of the critic call that made it.
    for (const record of records) {
      const proposalUsd = record.proposals.reduce((sum, proposal) => sum + proposal.costUsd, 0);
      expect(proposalUsd).toBeLessThanOrEqual(record.criticUsd + 1e-12);
    }
  } finally {
    await store.close();
  }

  const shown = await runCli([
    "library",
    "show",
    "--domain",
    "math",
    "--costs",
    "--all",
    "--wide",
    "--db",
    db,
  ]);
  expect(shown.code, shown.stderr).toBe(0);
  expect(shown.stdout).toMatch(/cost \$ +credit/);
  for (const [id, cost] of entries)
    expect(shown.stdout).toMatch(new RegExp(`\\n${id} .* ${cost.costUsd.toFixed(5)} `));
  expect(shown.stdout).toMatch(
    /learning cost: \$[\d.]+ on entries written over 2 step\(s\), \$[\d.]+ on proposals that were dropped/,
  );
}, 300_000);
