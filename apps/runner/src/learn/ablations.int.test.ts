import { mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { allPitfalls, createSuite, defaultPolicyBehaviour, readLesson, writeSuiteJsonl } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { beforeAll, describe, expect, it } from "vitest";
import { type AblateOptions, ablate, paperSimFall } from "../commands/ablate.js";
import { spawnCli } from "../testing/spawn-cli.js";
import { type AblationVariant, ablationVariants } from "./render-ablation-table.js";

// The paper's math ablation (section 7 of seed 000), run for real on the SIMULATED world: four learning runs, each in
// a database of its own, then every head library and no library on the same held-out tasks and seeds. The actor
// answers directly: the sim's pitfalls work the same as with tools, without the sandbox's start-up per rollout, so
// one ablation takes about half a minute.

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-ablate-"));
});

const small: Omit<AblateOptions, "dir"> = {
  sim: true,
  domain: "math",
  trainSize: 12,
  valSize: 12,
  testSize: 24,
  seed: 7,
  epochs: 2,
  groupSize: 5,
  k: 2,
  concurrency: 6,
  mode: "direct",
};

async function runAblation(simFall: number) {
  let stdout = "";
  const outcome = await ablate(
    { ...small, dir: directory, simFall },
    { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: () => true } },
  );
  const mean = Object.fromEntries(
    outcome.rows.map((row) => [row.variant, row.evaluation.meanAtK.estimate]),
  ) as Record<AblationVariant, number>;
  return { outcome, stdout, mean };
}

/** The sim pitfalls a library's entries address the right way, as the simulated policy reads them. */
async function pitfallsAddressed(database: string): Promise<Set<string>> {
  const store = await createStore(database, { mustExist: true });
  try {
    const head = await store.getHead("math");
    return new Set(
      (head?.experiences ?? [])
        .filter((entry) => entry.status !== "archived")
        .flatMap((entry) =>
          allPitfalls.filter((pitfall) => readLesson(pitfall.reading, entry.text).effect === "helps"),
        )
        .map((pitfall) => pitfall.id),
    );
  } finally {
    await store.close();
  }
}

describe("tfgrpo ablate on the simulated world", () => {
  it("with a policy about as strong as the paper's model, the full method beats G = 1, direct experiences and no library", async () => {
    const { outcome, stdout, mean } = await runAblation(paperSimFall);
    expect(outcome.rows.map((row) => row.variant)).toEqual([...ablationVariants]);
    // The paper's order where it claims one: full above G = 1, above direct experiences, above no library. On this
    // world (seed 7, docs/ablations.md for three more seeds) a single attempt gives the critic no contrast, so G = 1
    // learns less than the paper's; and a strong policy's majority answer is nearly always the true one, so without
    // ground truth it learns about as much as with it.
    expect(mean.full).toBeGreaterThan(mean.g1);
    expect(mean.full).toBeGreaterThan(mean.direct);
    expect(mean.full).toBeGreaterThan(mean.none);
    expect(mean["no-gt"]).toBeGreaterThanOrEqual(mean.g1);
    expect(mean.direct).toBeGreaterThanOrEqual(mean.none);

    // The table, in the paper's order, on stdout and in the full run's report.
    const lines = stdout.split("\n");
    const order = [
      "no library",
      "direct experiences",
      "no ground truth",
      "G = 1",
      "exposure off",
      "full (G = 5)",
    ].map((label) => lines.findIndex((line) => line.includes(label)));
    expect(order.every((index) => index > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(stdout).toContain("SIMULATED");
    const html = await readFile(outcome.report, "utf8");
    expect(html).toContain("Ablations (the paper");
    expect(html).toContain("direct experiences (N = ");

    // Every setting is a real learn run in its own database; direct experiences is one committed version of as many
    // active lessons as the full library holds, written by one critic call whose usage is recorded.
    const row = (variant: AblationVariant) => outcome.rows.find((r) => r.variant === variant)!;
    const fullLessons = row("full").lessons;
    expect(fullLessons).toBeGreaterThan(0);
    for (const variant of ["full", "no-gt", "g1", "no-exposure", "direct"] as const) {
      const store = await createStore(row(variant).database!, { mustExist: true });
      try {
        const run = await store.getRun(row(variant).runId!);
        expect(run).toMatchObject({ kind: "learn", status: "finished" });
        if (variant === "direct") {
          expect(run?.config).toMatchObject({
            ablation: "direct-experiences",
            directExperiences: { lessons: fullLessons, role: "critic", problems: small.trainSize },
          });
          const versions = await store.listVersions("math");
          expect(versions).toHaveLength(1);
          expect(versions[0]).toMatchObject({ state: "committed", runId: run!.id });
          const head = await store.getHead("math");
          expect(head?.experiences).toHaveLength(fullLessons);
          expect(head?.experiences.every((entry) => entry.status === "active")).toBe(true);
          const usage = await store.getUsageTotals(run!.id);
          expect(usage.byRole.critic?.calls).toBe(1);
          // No training rollouts: the only trajectories are the held-out test's.
          const trajectories = await store.listTrajectories({ runId: run!.id });
          expect(trajectories.every((t) => t.groupId.includes("/ablation/"))).toBe(true);
        }
        if (variant === "full") {
          const stored = (await store.getRunState(run!.id, "evaluation/ablation")) as { rows: unknown[] };
          // The settings (the paper's five and exposure off), then the placebo controls of the full run's library.
          expect(outcome.controls.map((c) => c.setting)).toEqual([
            `control: keyword stubs (${row("full").library})`,
            `control: shuffled (${row("full").library})`,
            "control: other domain (web.json, youtu-agent)",
          ]);
          expect(stored.rows).toHaveLength(ablationVariants.length + outcome.controls.length);
        }
      } finally {
        await store.close();
      }
    }
  }, 240_000);

  it("with the sim's own weak policy, G = 1 learns more than G = 5: all-wrong groups teach G = 5 nothing", async () => {
    // Not the paper's order, and not a bug: the weak policy rarely solves a task with two pitfalls, so its groups of
    // five are all wrong there and skipped (std = 0), while a single wrong attempt is still reflected on: the critic
    // flags the suspicious idioms of its code, with weaker attribution and more noise than from a contrast.
    const { outcome, mean } = await runAblation(defaultPolicyBehaviour.fall.none);
    expect(mean.g1).toBeGreaterThan(mean.full);
    expect(mean.full).toBeGreaterThan(mean.none);

    const full = outcome.rows.find((r) => r.variant === "full")!;
    const single = outcome.rows.find((r) => r.variant === "g1")!;
    const store = await createStore(full.database!, { mustExist: true });
    try {
      const rewards = new Map<string, number[]>();
      for (const t of await store.listTrajectories({ runId: full.runId!, step: 1 }))
        if (t.groupId.includes("/s1/"))
          rewards.set(t.groupId, [...(rewards.get(t.groupId) ?? []), t.reward ?? 0]);
      expect([...rewards.values()].some((group) => group.every((reward) => reward === 0))).toBe(true);
    } finally {
      await store.close();
    }
    const learnedByFull = await pitfallsAddressed(full.database!);
    const learnedBySingle = await pitfallsAddressed(single.database!);
    expect([...learnedBySingle].some((pitfall) => !learnedByFull.has(pitfall))).toBe(true);
  }, 240_000);

  it("learn --direct-experiences N commits N lessons in one version without rollouts, and resumes to the same", async () => {
    const train = path.join(directory, "direct-train.jsonl");
    await writeSuiteJsonl(train, createSuite({ domain: "math", seed: 3, size: 8, split: "train" }));
    const db = path.join(directory, "direct-cli", "tfgrpo.db");
    const args = ["learn", "--sim", "--seed", "3", "--domain", "math", "--db", db];
    const first = spawnCli([
      ...args,
      "--train",
      train,
      "--direct-experiences",
      "5",
      "--run-id",
      "direct-cli",
    ]);
    expect(await first.exited, first.output.stderr).toBe(0);
    expect(first.output.stdout).toContain("direct experiences (ablation), no rollouts");
    expect(first.output.stdout).toContain("head: math@v1");
    const again = spawnCli(["learn", "--sim", "--resume", "direct-cli", "--db", db]);
    expect(await again.exited, again.output.stderr).toBe(0);
    expect(again.output.stdout).toContain("head: math@v1");
    const store = await createStore(db, { mustExist: true });
    try {
      expect(await store.listVersions("math")).toHaveLength(1);
      expect((await store.getHead("math"))?.experiences).toHaveLength(5);
      expect(await store.listTrajectories({ runId: "direct-cli" })).toEqual([]);
      expect((await store.getUsageTotals("direct-cli")).byRole.critic?.calls).toBe(1);
    } finally {
      await store.close();
    }
  }, 120_000);
});
