import { mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createSuite, writeSuiteJsonl } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { beforeAll, describe, expect, it } from "vitest";
import { vendoredLibraryFile } from "../learn/vendored-libraries.js";
import { runCli } from "../testing/spawn-cli.js";

// `tfgrpo eval --sim --controls` as a user runs it: a real DeepSeek-written library (test-data) against no library
// and its placebo controls on a tiny SIMULATED math test split (7 in-family, 2 held-out-family tasks).
let directory: string;
let data: string;
let db: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-eval-"));
  data = path.join(directory, "math-test.jsonl");
  db = path.join(directory, "tfgrpo.db");
  await writeSuiteJsonl(data, createSuite({ domain: "math", seed: 3, size: 9, split: "test" }));
  const store = await createStore(db);
  try {
    for (const domain of ["math", "web"] as const) {
      const file = vendoredLibraryFile(domain);
      await store.importLibrary(domain, { text: await readFile(file, "utf8"), file, format: "plain" });
    }
  } finally {
    await store.close();
  }
});

const args = (...rest: string[]) => [
  "eval",
  "--sim",
  "--seed",
  "3",
  "--domain",
  "math",
  "--data",
  data,
  "--db",
  db,
  ...rest,
];

describe("tfgrpo eval --controls", () => {
  it("evaluates placebo libraries beside the library on the same tasks, grouped by familySplit, as JSON", async () => {
    const run = await runCli(
      args(
        "--library",
        "none",
        "--library",
        "math@head",
        "--k",
        "1",
        "--mode",
        "direct",
        "--controls",
        "--json",
      ),
    );
    expect(run.code, run.stderr).toBe(0);
    const evaluation = JSON.parse(run.stdout);
    expect(evaluation.simulated).toBe(true);
    expect(evaluation.title).toContain("SIMULATED");
    expect(evaluation.rows.map((r: { label: string }) => r.label)).toEqual([
      "none",
      "math@v1",
      "control: keyword stubs (math@v1)",
      "control: shuffled (math@v1)",
      "control: other domain (web.json, youtu-agent)",
    ]);
    expect(evaluation.rows.map((r: { control?: { kind: string } }) => r.control?.kind ?? null)).toEqual([
      null,
      null,
      "keyword-stubs",
      "shuffled",
      "other-domain",
    ]);
    expect(evaluation.rows.every((r: { tasks: number }) => r.tasks === 9)).toBe(true);
    expect(evaluation.groups.field).toBe("familySplit");
    expect(evaluation.groups.groups.map((g: { value: string; tasks: number }) => [g.value, g.tasks])).toEqual(
      [
        ["in-family", 7],
        ["out-of-family", 2],
      ],
    );
    for (const group of evaluation.groups.groups) {
      expect(group.rows).toHaveLength(5);
      expect(group.rows[0].deltaVsReference).toBeNull();
      expect(
        group.rows.slice(1).every((r: { deltaVsReference: unknown }) => r.deltaVsReference !== null),
      ).toBe(true);
    }

    const store = await createStore(db, { mustExist: true });
    try {
      // The placebos were served from memory: the user's libraries are the two imported ones, unchanged.
      expect((await store.listDomains()).map((d) => d.domain).sort()).toEqual(["math", "web"]);
      expect(await store.listVersions("math")).toHaveLength(1);
      const stored = await store.getRunState(evaluation.runId, "evaluation/eval");
      const { runId: _runId, simulated: _simulated, tasks: _tasks, ...printed } = evaluation;
      expect(stored).toEqual(printed);
      const trajectories = await store.listTrajectories({ runId: evaluation.runId });
      expect(trajectories).toHaveLength(9 * 5);
      // The same tasks and attempts for every library (their sample seeds come from task and attempt).
      const seeds = (label: string) =>
        trajectories
          .filter((t) => t.groupId.includes(`/${label}/`))
          .map((t) => `${t.taskId}:${t.attempt}`)
          .sort();
      expect(seeds("control: shuffled (math@v1)")).toEqual(seeds("none"));
    } finally {
      await store.close();
    }

    // `report` shows the controls and the groups of the stored evaluation.
    const report = await runCli(["report", evaluation.runId, "--db", db]);
    expect(report.code, report.stderr).toBe(0);
    const html = await readFile(report.stdout.trim().split("\n").at(-1)!, "utf8");
    expect(html).toContain("SIMULATED");
    expect(html).toContain("By familySplit");
    expect(html).toContain("out-of-family");
    expect(html).toContain("control: keyword stubs (math@v1)");
    expect(html).toContain("placebo: web.json, youtu-agent");
  }, 180_000);

  it("prints the table, the groups and the controls with another domain of the database", async () => {
    const run = await runCli(
      args(
        "--library",
        "math@head",
        "--k",
        "1",
        "--mode",
        "direct",
        "--control-domain",
        "web",
        "--group-by",
        "family",
      ),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("(SIMULATED)");
    for (const label of [
      "control: keyword stubs (math@v1)",
      "control: shuffled (math@v1)",
      "control: other domain (web@v1)",
    ])
      expect(run.stdout).toContain(label);
    expect(run.stdout).toContain("by family:");
    expect(run.stdout).toMatch(/committee-choices|draws-without-replacement/);
    expect(run.stdout).toContain("controls are placebo libraries");

    const bad = await runCli(args("--library", "math@head", "--group-by", "difficulty"));
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("--group-by difficulty: no task has that field");
  }, 180_000);
});
