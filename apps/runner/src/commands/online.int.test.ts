import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../testing/spawn-cli.js";
import { online } from "./online.js";

// `tfgrpo online` as a user runs it: its own process, the SIMULATED world in it (--sim), a SQLite file.

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-online-cli-"));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("tfgrpo online", () => {
  it("serves a task file while learning, prints a summary, records a run that report shows", async () => {
    const tasks = path.join(directory, "tasks.jsonl");
    const db = path.join(directory, "w.db");
    const made = await runCli([
      "sim",
      "dataset",
      "--domain",
      "math",
      "--split",
      "train",
      "--size",
      "30",
      "--seed",
      "9",
      "--out",
      tasks,
    ]);
    expect(made.code).toBe(0);
    const run = await runCli([
      "online",
      "--sim",
      "--seed",
      "9",
      "--domain",
      "math",
      "--tasks",
      tasks,
      "--db",
      db,
      "--no-tools",
      "--drop-below",
      "0.5",
      "--canary-share",
      "0.5",
      "--run-id",
      "online-cli",
      "--json",
    ]);
    expect(run.stderr).toContain("SIMULATED world");
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({ runId: "online-cli", served: 30 });
    expect(summary.windows.map((w: { served: number }) => w.served)).toEqual([25, 5]);
    expect(summary.reflections.length).toBeGreaterThan(0);
    expect(summary.reflections[0].reason).toBe("success-drop");
    expect(run.stderr).toMatch(/online: reflection after #\d+ \(success-drop/);
    const report = await runCli([
      "report",
      "online-cli",
      "--db",
      db,
      "--out",
      path.join(directory, "r.html"),
    ]);
    expect(report.code).toBe(0);
    const html = await readFile(path.join(directory, "r.html"), "utf8");
    expect(html).toContain('id="online-summary"');
    expect(html).toContain("served 30 tasks");
  }, 180_000);

  it("refuses bad input with an error naming what is wrong, before anything starts or is written", async () => {
    const db = path.join(directory, "bad.db");
    const output = { stdout: () => {}, stderr: () => {} };
    const run = (extra: Record<string, unknown>) =>
      online({ domain: "math", db, sim: true, seed: 1, concurrency: 1, ...extra }, output);
    await expect(run({})).rejects.toThrow("--tasks FILE or --nats URL");
    const settings = path.join(directory, "online.yaml");
    await writeFile(settings, "trigger:\n  dropBelow: 3\n");
    const tasks = path.join(directory, "one.jsonl");
    await writeFile(
      tasks,
      `${JSON.stringify({ id: "t1", domain: "math", question: "1+1?", answer: "2" })}\n`,
    );
    await expect(run({ tasks, online: settings })).rejects.toThrow(/online\.yaml: trigger\.dropBelow/);
    await expect(run({ tasks, canaryShare: 0 })).rejects.toThrow(/online settings: rollout\.canaryShare/);
    await expect(run({ tasks: path.join(directory, "nope.jsonl") })).rejects.toThrow("nope.jsonl");
    expect(existsSync(db)).toBe(false);
  });
});
