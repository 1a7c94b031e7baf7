// Acceptance (SIMULATED): the team's own agent — a LangChain createAgent agent, an AI SDK agent and an OpenAI Agents
// SDK agent, the README's
// example modules, with ChatOpenAI / @ai-sdk/openai-compatible pointed at the sim server — learns offline through
// `learn --agent`, and its held-out Mean@4 with the learned head is >= 20 points above the same agent with no
// library. In process (one sim server for learn and eval: the module reads its port once, when imported).
import path from "node:path";
import { defaultValidationSamples } from "@tfgrpo/curator";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSimServer, createSuite, type SimServer, writeSuiteJsonl } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluate } from "../commands/eval.js";
import { learn } from "../commands/learn.js";
import { storedLearnRun } from "../learn/stored-learn-run.js";
import { simModelsConfig } from "../runtime/start-sim-world.js";
import { captureCommandOutput } from "../testing/capture-command-output.js";
import { repositoryRoot } from "../testing/spawn-cli.js";

let temporary: TemporaryDirectory | undefined;
let sim: SimServer;
const files = { train: "", val: "", test: "" };
beforeAll(async () => {
  temporary = await temporaryDirectory("tfgrpo-learn-agent-");
  sim = await createSimServer({ seed: 7 });
  process.env.SIM_PORT = String(sim.port);
  const sizes = { train: 20, val: 20, test: 30 };
  for (const split of ["train", "val", "test"] as const) {
    files[split] = path.join(temporary.path, `${split}.jsonl`);
    await writeSuiteJsonl(files[split], createSuite({ domain: "math", seed: 7, size: sizes[split], split }));
  }
});
afterAll(async () => {
  await sim?.close();
  await temporary?.[Symbol.asyncDispose]();
});

describe("learn --agent on the simulated world", () => {
  it.each([
    ["langchain-agent.mjs", "langchain"],
    ["ai-sdk-agent.mjs", "ai-sdk"],
    ["openai-agents-agent.mjs", "openai-agents"],
  ])(
    "%s learns: held-out Mean@4 with the learned head >= 20 points above no library",
    async (module, name) => {
      const db = path.join(temporary!.path, name, "tfgrpo.db");
      const agent = path.join(repositoryRoot, "examples/agents", module);
      const learned = captureCommandOutput();
      const outcome = await learn(
        {
          config: simModelsConfig,
          agent,
          domain: "math",
          train: files.train,
          val: files.val,
          epochs: 1,
          groupSize: 5,
          concurrency: 8,
          groundTruth: true,
          seed: 7,
          db,
          valK: defaultValidationSamples,
          precheck: 0,
          mode: "tools",
          baseline: true,
          localRoles: "actor,critic,curator",
          temperature: 0.7,
          evalTemperature: 0.3,
          trace: false,
        },
        learned.output,
      );
      expect(learned.written.stderr).toContain("actor: the team's agent from");
      expect(outcome.headVersion).not.toBeNull();
      // The run records its agent module: `learn --resume` runs the same agent.
      const store = await createStore(db);
      try {
        expect((await store.getRun(outcome.runId))?.config.agent).toBe(agent);
        expect(await storedLearnRun(db, outcome.runId)).toMatchObject({ agent });
        // Each attempt's trajectory is the agent's: its model calls and tokens, as its framework counted them.
        const trajectories = await store.listTrajectories({ runId: outcome.runId });
        expect(new Set(trajectories.map((t) => t.model))).toEqual(new Set([`agent:${name}`]));
        expect(trajectories.every((t) => t.usage.calls >= 1 && t.usage.inputTokens > 0)).toBe(true);
      } finally {
        await store.close();
      }
      const evaluation = await evaluate(
        {
          config: simModelsConfig,
          agent,
          domain: "math",
          library: ["none", "math@head"],
          data: files.test,
          k: 4,
          concurrency: 8,
          seed: 1007,
          temperature: 0.3,
          db,
          mode: "tools",
          localRoles: "actor,critic,curator",
          trace: false,
        },
        captureCommandOutput().output,
      );
      const [none, head] = evaluation!.rows;
      expect(none!.label).toBe("none");
      const delta = head!.deltaVsReference!;
      const pct = (x: number) => (100 * x).toFixed(1);
      console.log(
        `${name}: Mean@4 none ${pct(none!.meanAtK.estimate)}% [${pct(none!.meanAtK.low)}, ${pct(none!.meanAtK.high)}], ` +
          `head ${pct(head!.meanAtK.estimate)}% [${pct(head!.meanAtK.low)}, ${pct(head!.meanAtK.high)}], ` +
          `Δ ${pct(delta.estimate)} [${pct(delta.low)}, ${pct(delta.high)}] points`,
      );
      expect(delta.estimate).toBeGreaterThanOrEqual(0.2);
      expect(delta.low).toBeGreaterThan(0);
    },
    240_000,
  );
});
