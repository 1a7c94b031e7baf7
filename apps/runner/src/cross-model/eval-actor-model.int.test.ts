import path from "node:path";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSuite, writeSuiteJsonl } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { describe, expect, it } from "vitest";
import { type EvalCommandOptions, evaluate } from "../commands/eval.js";
import { captureCommandOutput } from "../testing/capture-command-output.js";

describe("eval --actor-model", () => {
  it("evaluates the same libraries with the configured actor and another, side by side; --dry-run calls nothing", async () => {
    await using directory = await temporaryDirectory("tfgrpo-actor-model-");
    const data = path.join(directory.path, "val.jsonl");
    await writeSuiteJsonl(data, createSuite({ domain: "math", seed: 4, size: 3, split: "val" }));
    const db = path.join(directory.path, "tfgrpo.db");
    const options: EvalCommandOptions = {
      domain: "math",
      library: ["none"],
      data,
      k: 1,
      concurrency: 4,
      seed: 4,
      temperature: 0.3,
      db,
      mode: "tools",
      localRoles: "actor,critic,curator",
      sim: true,
      runId: "transfer",
      actorModel: "sim-critic",
    };
    const dry = captureCommandOutput();
    await evaluate({ ...options, dryRun: true }, dry.output);
    expect(dry.written.stdout).toMatch(/^eval dry run, no model called: 6 \(6–6\) rollouts/);

    const { output, written } = captureCommandOutput();
    await evaluate(options, output);
    expect(written.stdout).toContain(
      "Transfer: the same libraries, tasks and seeds with the configured actor and with sim-critic",
    );
    expect(written.stdout).toMatch(
      /library\s+Mean@k, actor configured\s+Mean@k, actor sim-critic\s+Δ sim-critic vs configured/,
    );
    const store = await createStore(db);
    try {
      const models = async (runId: string) =>
        new Set((await store.listTrajectories({ runId })).map((trajectory) => trajectory.model));
      expect(await models("transfer-configured")).toEqual(new Set(["sim-actor"]));
      expect(await models("transfer-sim-critic")).toEqual(new Set(["sim-critic"]));
    } finally {
      await store.close();
    }
  }, 120_000);
});
