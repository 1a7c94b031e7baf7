// `tfgrpo eval --sim` on τ²-bench retail end to end: the imported tasks, the retail MCP server with one session per
// attempt, the simulated agent and user, the imported reward module; pass^k beside Mean@k.
import path from "node:path";
import { afterEach, expect, it, onTestFinished } from "vitest";
import { importedRetail } from "../testing/imported-retail.js";
import { evaluate } from "./eval.js";

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

it("eval on retail tasks reports pass^1..pass^k from conversations scored by the τ² rule", async () => {
  // Every attempt makes dozens of model and tool calls on its signal: none of them may leave a listener behind.
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  process.on("warning", onWarning);
  onTestFinished(() => {
    process.off("warning", onWarning);
  });
  await using retail = await importedRetail({ tasks: 3, prefix: "tfgrpo-tau2-eval-" });
  const { dir: outDir, server, tasks } = retail;
  // This test reaches the settings through the environment, as before `--settings` existed.
  process.env.TFGRPO_ACTOR_CONFIG = retail.actorSettings;
  process.env.TFGRPO_CRITIC_CONFIG = path.join(outDir, "tau2-retail.critic.yaml");
  const evaluation = await evaluate(
    {
      domain: "tau2-retail",
      library: ["none"],
      data: tasks,
      k: 2,
      concurrency: 4,
      seed: 3,
      temperature: 0.3,
      mode: "tools",
      localRoles: "actor,critic,curator",
      sim: true,
      db: path.join(outDir, "eval.db"),
      runId: "eval-tau2-retail",
    },
    quiet,
  );
  const row = evaluation!.rows[0]!;
  expect(row.infrastructureFailures ?? 0).toBe(0);
  expect(row.passHatK?.map((entry) => entry.k)).toEqual([1, 2]);
  // pass^1 is Mean@k for 0/1 rewards; the agent really called the store's tools in every attempt.
  expect(row.passHatK![0]!.value.estimate).toBeCloseTo(row.meanAtK.estimate, 12);
  expect(row.meanToolCalls).toBeGreaterThan(2);
  expect(server.sessions).toBe(0);
  expect(warnings.map((warning) => `${warning.name}: ${warning.message}`)).toEqual([]);
}, 180_000);
