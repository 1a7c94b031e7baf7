import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadDataset } from "@tfgrpo/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

function start(args: string[]): ChildProcess {
  return spawn(
    process.execPath,
    ["--conditions=source", "--import", "tsx", "apps/runner/src/cli.ts", ...args],
    {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
}

function collect(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("tfgrpo sim", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-sim-cli-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("dataset writes a suite the dataset loader reads, labelled simulated", async () => {
    const out = path.join(dir, "train.jsonl");
    const result = await collect(
      start([
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
      ]),
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("wrote 14 SIMULATED math train task(s) from 7 families");
    const tasks = await loadDataset(out, { domain: "math", requireAnswer: true });
    expect(tasks).toHaveLength(14);
    expect(tasks[0]!.meta).toMatchObject({ simulated: true, split: "train" });
  });

  it("corpus writes the simulated web as JSONL", async () => {
    const out = path.join(dir, "corpus.jsonl");
    const result = await collect(
      start(["sim", "corpus", "--seed", "2", "--out", out, "--base-url", "http://127.0.0.1:9/corpus"]),
    );
    expect(result.code).toBe(0);
    const first = JSON.parse((await readFile(out, "utf8")).split("\n")[0]!) as {
      url: string;
      content: string;
    };
    expect(first.url.startsWith("http://127.0.0.1:9/corpus/")).toBe(true);
    expect(first.content).toContain("SIMULATED");
  });

  it("serve prints its URL, answers the openai API and stops cleanly on SIGINT", async () => {
    const child = start([
      "sim",
      "serve",
      "--port",
      "0",
      "--seed",
      "5",
      "--faults",
      "rate=0.1,kinds=latency=5",
    ]);
    const done = collect(child);
    let seen = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        seen += chunk.toString();
        const match = /OpenAI base URL: (\S+)/.exec(seen);
        if (match) resolve(match[1]!);
      });
      child.once("close", () =>
        done.then((r) => reject(new Error(`sim serve exited early: ${seen}${r.stderr}`))),
      );
    });
    expect(seen).toContain("SIMULATED");
    const models = (await (await fetch(`${url}/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((m) => m.id)).toContain("sim-actor");
    child.kill("SIGINT");
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/stopped after \d+ request\(s\)/);
  });
});
