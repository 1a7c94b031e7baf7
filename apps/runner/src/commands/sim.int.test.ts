import { readFile } from "node:fs/promises";
import path from "node:path";
import { loadDataset } from "@tfgrpo/protocol";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { runCli, spawnCli } from "../testing/spawn-cli.js";

describe("tfgrpo sim", () => {
  it("dataset writes a suite the dataset loader reads, labelled simulated", async () => {
    await using dir = await temporaryDirectory("tfgrpo-sim-cli-");
    const out = path.join(dir.path, "train.jsonl");
    const result = await runCli([
      "sim",
      "dataset",
      "--domain",
      "math",
      "--split",
      "train",
      "--size",
      "14",
      "--seed",
      "1",
      "--out",
      out,
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("wrote 14 SIMULATED math train task(s) from 7 families");
    const tasks = await loadDataset(out, { domain: "math", requireAnswer: true });
    expect(tasks).toHaveLength(14);
    expect(tasks[0]!.meta).toMatchObject({ simulated: true, split: "train" });
  });

  it("corpus writes the simulated web as JSONL", async () => {
    await using dir = await temporaryDirectory("tfgrpo-sim-cli-");
    const out = path.join(dir.path, "corpus.jsonl");
    const result = await runCli([
      "sim",
      "corpus",
      "--seed",
      "2",
      "--out",
      out,
      "--base-url",
      "http://127.0.0.1:9/corpus",
    ]);
    expect(result.code).toBe(0);
    const first = JSON.parse((await readFile(out, "utf8")).split("\n")[0]!) as {
      url: string;
      content: string;
    };
    expect(first.url.startsWith("http://127.0.0.1:9/corpus/")).toBe(true);
    expect(first.content).toContain("SIMULATED");
  });

  it("serve prints its URL, answers the openai API and stops cleanly on SIGINT", async () => {
    const { child, output, exited } = spawnCli([
      "sim",
      "serve",
      "--port",
      "0",
      "--seed",
      "5",
      "--faults",
      "rate=0.1,kinds=latency=5",
    ]);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout!.on("data", () => {
          const match = /OpenAI base URL: (\S+)/.exec(output.stdout);
          if (match) resolve(match[1]!);
        });
        void exited.then(() => reject(new Error(`sim serve exited early: ${output.stdout}${output.stderr}`)));
      });
      expect(output.stdout).toContain("SIMULATED");
      const models = (await (await fetch(`${url}/models`)).json()) as { data: { id: string }[] };
      expect(models.data.map((m) => m.id)).toContain("sim-actor");
      child.kill("SIGINT");
      expect(await exited).toBe(0);
      expect(output.stdout).toMatch(/stopped after \d+ request\(s\)/);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  });
});
