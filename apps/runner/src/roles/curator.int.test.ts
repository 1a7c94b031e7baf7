// `tfgrpo serve --role curator --nats URL --db FILE` as a separate process, against a real nats-server and the
// SIMULATED model server: this process plays the runner and calls the curator's subjects over NATS.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { createNatsBus } from "@tfgrpo/bus-nats";
import { startNatsServer } from "@tfgrpo/bus-nats/testing";
import { curatorConsolidate, curatorGate, curatorLifecycle } from "@tfgrpo/protocol";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSimServer } from "@tfgrpo/sim";
import { loadLessonBank } from "@tfgrpo/sim/testing";
import { createStore } from "@tfgrpo/store";
import { realLibraryPath } from "@tfgrpo/store/testing";
import { expect, it } from "vitest";
import { startRoleWorker } from "../testing/start-role-worker.js";
import { loadCuratorSettings } from "./curator.js";

it("tfgrpo serve --role curator consolidates and gates over NATS, writing the workspace database", async () => {
  await using nats = await startNatsServer();
  await using sim = await createSimServer({ seed: 5 });
  await using temporary = await temporaryDirectory("tfgrpo-curator-role-");
  const dir = temporary.path;
  const db = path.join(dir, "workspace.db");
  const store = await createStore(db);
  await store.importLibrary("math", {
    text: await readFile(realLibraryPath("math"), "utf8"),
    file: "math.json",
  });
  const head = (await store.getHeadVersion("math"))!;
  await store.close();
  await writeFile(path.join(dir, "curator.yaml"), "curator:\n  wordLimit: 30\n  gate:\n    margin: 0.1\n");
  await using worker = await startRoleWorker(
    "curator",
    ["--nats", nats.url, "--config", "examples/models.sim.yaml", "--db", db],
    {
      env: {
        SIM_PORT: String(sim.port),
        TFGRPO_CURATOR_CONFIG: path.join(dir, "curator.yaml"),
        TFGRPO_NATS_URL: "",
      },
    },
  );
  const runner = await createNatsBus({ servers: nats.url, name: "curator-role-test" });
  try {
    expect(worker.output.stderr).toContain("tfgrpo.curator.consolidate (requests)");
    expect(worker.output.stderr).toContain("tfgrpo.curator.merge (requests)");
    // Three correct lessons about one pitfall, from the lesson bank (written independently of the sim).
    const [pitfall] = Object.values(loadLessonBank("math").pitfalls);
    const reply = await runner.request(curatorConsolidate, {
      runId: "run-role",
      domain: "math",
      baseVersion: head,
      proposals: pitfall!.correct.slice(0, 3).map((text, index) => ({
        proposalId: `p${index}`,
        op: "add" as const,
        text,
        reason: "found in a group",
        groupId: `g${index}`,
        taskId: `t${index}`,
      })),
    });
    expect(reply.version).not.toBeNull();
    expect(reply.usage?.calls).toBeGreaterThan(0);
    // Settings from TFGRPO_CURATOR_CONFIG: the prompt states a 30-word limit; a 0.05 gain is below the 0.1 margin.
    const gate = await runner.request(curatorGate, {
      domain: "math",
      candidateVersion: reply.version!,
      headVersion: head,
      candidateScores: [0.55, 0.5],
      headScores: [0.5, 0.45],
      stage: "full",
    });
    expect(gate).toMatchObject({ decision: "reject", margin: 0.1 });
    const lifecycle = await runner.request(curatorLifecycle, { domain: "math" });
    expect(lifecycle.transitions).toEqual([]);

    const check = await createStore(db);
    try {
      expect((await check.getVersionInfo("math", reply.version!))!.state).toBe("rejected");
      expect(await check.getHeadVersion("math")).toBe(head);
      const entries = (await check.getVersion("math", reply.version!))!.experiences;
      for (const entry of entries.filter((e) => e.status !== "archived"))
        expect(entry.text.split(/\s+/).length).toBeLessThanOrEqual(30);
    } finally {
      await check.close();
    }
  } finally {
    await runner.close();
  }
});

it("reads curator settings (top level or under curator:) and rejects unknown keys, naming the file", async () => {
  await using temporary = await temporaryDirectory("tfgrpo-curator-settings-");
  const dir = temporary.path;
  await writeFile(path.join(dir, "ok.json"), JSON.stringify({ wordLimit: 24, gate: { mode: "always" } }));
  expect(await loadCuratorSettings(path.join(dir, "ok.json"))).toEqual({
    wordLimit: 24,
    gate: { mode: "always" },
  });
  await writeFile(path.join(dir, "nested.yaml"), "curator:\n  activeBudget:\n    maxEntries: 20\n");
  expect(await loadCuratorSettings(path.join(dir, "nested.yaml"))).toEqual({
    activeBudget: { maxEntries: 20 },
  });
  await writeFile(path.join(dir, "bad.yaml"), "wordLimt: 3\n");
  await expect(loadCuratorSettings(path.join(dir, "bad.yaml"))).rejects.toThrow(/bad\.yaml: .*wordLimt/);
});
