// A team's own LangChain agent with its own Python tool (`py_exec(source)`, test/fixtures/agents/python-tool-agent.mjs),
// evaluated with `eval --agent` on the SIMULATED math test split: the sim picks the tool by what it says it does, the
// agent answers from what its program printed, and a library of correct lessons (written by someone who never read
// the sim: test-data/lesson-bank) lifts it. In process: the agent module reads the sim's port once, when imported.
import path from "node:path";
import type { Trajectory } from "@tfgrpo/protocol";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSimServer, createSuite, type SimServer, writeSuiteJsonl } from "@tfgrpo/sim";
import { lessonBankPath } from "@tfgrpo/sim/testing";
import { createStore } from "@tfgrpo/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluate } from "../commands/eval.js";
import { libraryImport } from "../commands/library.js";
import { simModelsConfig } from "../runtime/start-sim-world.js";
import { captureCommandOutput } from "../testing/capture-command-output.js";
import { repositoryRoot } from "../testing/spawn-cli.js";

const agent = path.join(repositoryRoot, "apps/runner/test/fixtures/agents/python-tool-agent.mjs");
let temporary: TemporaryDirectory | undefined;
let sim: SimServer;
let data = "";
beforeAll(async () => {
  temporary = await temporaryDirectory("tfgrpo-python-tool-agent-");
  sim = await createSimServer({ seed: 11 });
  process.env.SIM_PORT = String(sim.port);
  data = path.join(temporary.path, "test.jsonl");
  await writeSuiteJsonl(data, createSuite({ domain: "math", seed: 11, size: 12, split: "test" }));
});
afterAll(async () => {
  await sim?.close();
  await temporary?.[Symbol.asyncDispose]();
});

/** The last line a py_exec call printed (its plain-text result), or null when the run failed. */
function printed(call: Trajectory["toolCalls"][number]): string | null {
  const output = String(call.output ?? "");
  if (output.startsWith("Error")) return null;
  return (
    output
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean)
      .at(-1) ?? null
  );
}

describe("a team's agent with its own Python tool, on the simulated world", () => {
  it("runs its own tool, answers from what it printed, and is lifted by correct lessons", async () => {
    const db = path.join(temporary!.path, "tfgrpo.db");
    await libraryImport(lessonBankPath("libraries/math-correct.json"), {
      db,
      domain: "math",
      format: "auto",
      status: "active",
    });
    const runId = "eval-python-tool-agent";
    const evaluation = await evaluate(
      {
        config: simModelsConfig,
        agent,
        domain: "math",
        library: ["none", "math@head"],
        data,
        k: 2,
        concurrency: 8,
        seed: 11,
        temperature: 0.3,
        db,
        mode: "tools",
        localRoles: "actor,critic,curator",
        trace: false,
        runId,
      },
      captureCommandOutput().output,
    );
    const [none, head] = evaluation!.rows;
    const store = await createStore(db);
    let trajectories: Trajectory[];
    try {
      trajectories = await store.listTrajectories({ runId });
    } finally {
      await store.close();
    }
    expect(trajectories).toHaveLength(12 * 2 * 2);
    expect(new Set(trajectories.map((t) => t.model))).toEqual(new Set(["agent:langchain"]));
    // Every attempt ran its program through py_exec with the tool's own argument, and answered what it printed.
    for (const trajectory of trajectories) {
      expect(trajectory.toolCalls.length).toBeGreaterThanOrEqual(1);
      const last = trajectory.toolCalls.at(-1)!;
      expect(last.name).toBe("py_exec");
      expect(Object.keys(last.input as object)).toEqual(["source"]);
      expect((last.input as { source: string }).source).toMatch(/print\(/);
      const value = printed(last);
      if (value !== null) expect(trajectory.finalAnswer).toBe(value);
    }
    expect(trajectories.filter((t) => printed(t.toolCalls.at(-1)!) !== null).length).toBeGreaterThan(40);
    const pct = (x: number) => (100 * x).toFixed(1);
    const delta = head!.deltaVsReference!;
    console.log(
      `py_exec agent: Mean@2 none ${pct(none!.meanAtK.estimate)}%, correct lessons ${pct(head!.meanAtK.estimate)}%, ` +
        `Δ ${pct(delta.estimate)} [${pct(delta.low)}, ${pct(delta.high)}] points`,
    );
    expect(delta.estimate).toBeGreaterThanOrEqual(0.2);
    expect(delta.low).toBeGreaterThan(0);
  }, 180_000);
});
