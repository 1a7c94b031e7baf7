import path from "node:path";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSuite, writeSuiteJsonl } from "@tfgrpo/sim";
import { describe, expect, it } from "vitest";
import { type EvalCommandOptions, evaluate } from "../commands/eval.js";

const quiet = { stderr: { write: () => true }, stdout: { write: () => true } };

describe("eval --record / --replay", () => {
  it("replays a recorded sim evaluation offline to the same scores and cost", async () => {
    await using directory = await temporaryDirectory("tfgrpo-eval-cassette-");
    const data = path.join(directory.path, "val.jsonl");
    await writeSuiteJsonl(data, createSuite({ domain: "math", seed: 6, size: 3, split: "val" }));
    const cassette = path.join(directory.path, "cassette");
    const options: EvalCommandOptions = {
      domain: "math",
      library: ["none"],
      data,
      k: 2,
      concurrency: 4,
      seed: 6,
      temperature: 0.3,
      mode: "tools",
      localRoles: "actor,critic,curator",
    };
    const recorded = await evaluate(
      {
        ...options,
        sim: true,
        record: cassette,
        db: path.join(directory.path, "a.db"),
        runId: "eval-cassette",
      },
      quiet,
    );
    delete process.env.SIM_PORT;
    const replayed = await evaluate(
      { ...options, replay: cassette, db: path.join(directory.path, "b.db") },
      quiet,
    );
    const scores = (evaluation: typeof recorded) =>
      evaluation?.rows.map((row) => [row.label, row.meanAtK.estimate, row.passAtK.estimate, row.costPerTask]);
    expect(scores(replayed)).toEqual(scores(recorded));
    expect(recorded?.rows[0]?.costPerTask).toBeGreaterThan(0);
  }, 120_000);
});
