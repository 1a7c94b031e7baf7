// `tfgrpo eval --sim` on τ²-bench retail end to end: the imported tasks, the retail MCP server with one session per
// attempt, the simulated agent and user, the imported reward module; pass^k beside Mean@k.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { loadRetailDb, serveRetailMcpHttp } from "@tfgrpo/tau2-retail";
import { afterEach, expect, it, onTestFinished } from "vitest";
import { stringify } from "yaml";
import { retailDomainSettings } from "../data-import/import-tau2-retail.js";
import { dataImport } from "./data.js";
import { evaluate } from "./eval.js";

const retailDir = fileURLToPath(new URL("../../../../test-data/tau2-bench-retail/", import.meta.url));
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
  await using out = await temporaryDirectory("tfgrpo-tau2-eval-");
  await dataImport(
    [retailDir],
    { seed: 1, extractBoxed: "auto", answers: true, preset: "tau2-retail", outDir: out.path },
    quiet,
  );
  await using server = await serveRetailMcpHttp({
    initial: loadRetailDb(path.join(out.path, "db.json")),
    port: 0,
  });
  const settings = retailDomainSettings("Follow the store policy.", { command: "unused", args: [] });
  const actorConfig = path.join(out.path, "actor.yaml");
  await writeFile(
    actorConfig,
    stringify({
      ...settings,
      tools: { servers: { "tau2-retail": { url: server.url, environment: "session" } } },
    }),
  );
  process.env.TFGRPO_ACTOR_CONFIG = actorConfig;
  process.env.TFGRPO_CRITIC_CONFIG = path.join(out.path, "tau2-retail.critic.yaml");
  const tasks = path.join(out.path, "test3.jsonl");
  await writeFile(
    tasks,
    (await readFile(path.join(out.path, "test.jsonl"), "utf8")).split("\n").slice(0, 3).join("\n"),
  );
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
      db: path.join(out.path, "eval.db"),
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
