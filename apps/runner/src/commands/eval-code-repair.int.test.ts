// `tfgrpo eval --sim` on QuixBugs end to end: the imported tasks, the code-repair MCP server with one workspace per
// session, the simulated repair agent, the imported reward module running every test case in the sandbox. The data
// is a copy whose corrected programs carry a canary: nothing the run stores (tasks, prompts, tool results,
// trajectories, rewards) may contain it.
import { cp, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serveRepairMcpHttp } from "@tfgrpo/code-repair";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { afterEach, expect, it } from "vitest";
import { stringify } from "yaml";
import { repairDomainSettings } from "../data-import/import-quixbugs.js";
import { dataImport } from "./data.js";
import { evaluate } from "./eval.js";

const quixbugsDir = fileURLToPath(new URL("../../../../test-data/quixbugs/", import.meta.url));
const quiet = { stderr: { write: () => true }, stdout: { write: () => true } };
const saved = { actor: process.env.TFGRPO_ACTOR_CONFIG, critic: process.env.TFGRPO_CRITIC_CONFIG };

afterEach(() => {
  for (const [key, value] of [
    ["TFGRPO_ACTOR_CONFIG", saved.actor],
    ["TFGRPO_CRITIC_CONFIG", saved.critic],
  ] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

it("eval on repair tasks scores workspaces by their tests; no corrected program reaches anything stored", async () => {
  await using src = await temporaryDirectory("tfgrpo-quixbugs-src-");
  await using out = await temporaryDirectory("tfgrpo-quixbugs-eval-");
  await cp(quixbugsDir, src.path, { recursive: true });
  const canary = "ANSWER-KEY-CANARY-91c4";
  const correct = path.join(src.path, "correct_python_programs");
  for (const file of await readdir(correct)) {
    const text = await readFile(path.join(correct, file), "utf8");
    await writeFile(path.join(correct, file), `# ${canary}\n${text}`);
  }
  const imported = await dataImport(
    [src.path],
    { seed: 1, extractBoxed: "auto", answers: true, preset: "quixbugs", outDir: out.path },
    quiet,
  );
  await using server = await serveRepairMcpHttp({
    dataDir: path.join(out.path, "quixbugs"),
    port: 0,
    sandbox: { caseTimeoutMs: 1000 },
  });
  const settings = repairDomainSettings({ command: "unused", args: [] });
  const actorConfig = path.join(out.path, "actor.yaml");
  await writeFile(
    actorConfig,
    stringify({
      ...settings,
      tools: { servers: { "code-repair": { url: server.url, environment: "session" } } },
    }),
  );
  process.env.TFGRPO_ACTOR_CONFIG = actorConfig;
  process.env.TFGRPO_CRITIC_CONFIG = path.join(out.path, "code-repair.critic.yaml");
  // Two quick programs (no endless loops to wait out), wherever the split put them.
  const all = [...imported.train, ...imported.val];
  const chosen = ["gcd", "possible_change"].map((name) => all.find((task) => task.meta?.program === name)!);
  const tasks = path.join(out.path, "two.jsonl");
  await writeFile(tasks, chosen.map((task) => JSON.stringify(task)).join("\n"));
  const evaluation = await evaluate(
    {
      domain: "code-repair",
      library: ["none"],
      data: tasks,
      k: 2,
      concurrency: 2,
      seed: 3,
      temperature: 0.3,
      mode: "tools",
      localRoles: "actor,critic,curator",
      sim: true,
      db: path.join(out.path, "eval.db"),
      runId: "eval-code-repair",
    },
    quiet,
  );
  const row = evaluation!.rows[0]!;
  expect(row.infrastructureFailures ?? 0).toBe(0);
  expect(row.meanToolCalls).toBeGreaterThan(2);
  expect(row.meanAtK.estimate).toBeGreaterThan(0);
  expect(server.sessions).toBe(0);
  for (const file of await readdir(out.path, { recursive: true })) {
    const full = path.join(out.path, file);
    const text = await readFile(full).catch(() => null);
    if (text) expect(text.includes(canary), file).toBe(false);
  }
}, 300_000);
