import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadDataset, TfgrpoError } from "@tfgrpo/protocol";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { dataImport } from "../commands/data.js";
import { importDataset, parseFieldMap } from "./import-dataset.js";

const samples = fileURLToPath(new URL("../../../../test-data/benchmarks/", import.meta.url));
const sample = (name: string) => path.join(samples, name);
const quiet = { stderr: { write: () => true }, stdout: { write: () => true } };
const base = { seed: 1, extractBoxed: "auto" as const, answers: true };

describe("tfgrpo data import", () => {
  it("imports the AIME samples with their presets, the held-out file kept apart, loadable as datasets", async () => {
    await using directory = await temporaryDirectory("tfgrpo-import-");
    const imported = await dataImport(
      [sample("aime-2024.sample.jsonl")],
      {
        ...base,
        preset: "aime-2024",
        val: sample("aime-2025.sample.jsonl"),
        outDir: directory.path,
        splitBy: "family",
      },
      quiet,
    );
    expect([imported.train.length, imported.val.length, imported.duplicates]).toEqual([6, 5, 0]);
    const train = await loadDataset(path.join(directory.path, "train.jsonl"), {
      domain: "math",
      requireAnswer: true,
    });
    expect(train[0]).toMatchObject({
      id: "aime-2024-1",
      domain: "math",
      answer: "204",
      meta: { year: "2024" },
    });
    expect(train.find((task) => task.answer === "540")?.question).toMatch(
      /^Find the largest possible real part/,
    );
  });

  it("drops duplicates across the pool and the held-out file", async () => {
    const imported = await importDataset({
      files: [sample("aime-2024.sample.jsonl"), sample("aime-2024.sample.jsonl")],
      valFile: sample("aime-2024.sample.jsonl"),
      preset: "aime-2024",
    });
    expect([imported.train.length, imported.val.length, imported.duplicates]).toEqual([0, 6, 12]);
  });

  it("maps CSV fields and takes answers from the \\boxed{} of worked solutions", async () => {
    const imported = await importDataset({
      files: [sample("worked-solutions.csv")],
      map: "question=problem,answer=solution",
      domain: "math",
    });
    expect(imported.train.map((task) => task.answer)).toEqual(["5", "\\frac{3}{4}", "4"]);
    expect(imported.extracted).toBe(3);
  });

  it("reads DAPO-Math-17k's verl form: the template removed, the ground truth as answer", async () => {
    const imported = await importDataset({
      files: [sample("dapo-format.sample.jsonl")],
      preset: "dapo-math-17k",
    });
    expect(imported.train).toHaveLength(4);
    expect(imported.train[0]).toMatchObject({ id: "dapo-math-17k-format-0", answer: "204" });
    expect(imported.train[0]!.question).toMatch(/^Every morning Aya/);
    expect(imported.train[0]!.question).not.toMatch(/Answer:/);
  });

  it("splits WebWalkerQA by site domain: no family on both sides", async () => {
    const imported = await importDataset({
      files: [sample("webwalkerqa-format.sample.jsonl")],
      preset: "webwalkerqa",
      split: { val: 0.3, by: "family" },
    });
    const families = (tasks: typeof imported.train) => new Set(tasks.map((task) => task.meta?.family));
    expect(imported.train.length + imported.val.length).toBe(6);
    expect(imported.val.length).toBeGreaterThan(0);
    for (const family of families(imported.val)) expect(families(imported.train).has(family)).toBe(false);
    expect(imported.train[0]!.meta).toMatchObject({
      rootUrl: expect.stringMatching(/^https:/),
      type: expect.any(String),
    });
  });

  it("refuses a ragged CSV whole with file:line: field: problem, and writes nothing", async () => {
    await using directory = await temporaryDirectory("tfgrpo-import-bad-");
    const out = path.join(directory.path, "tasks.jsonl");
    const failure = await dataImport(
      [sample("ragged.csv")],
      { ...base, map: "question=problem,answer=solution", domain: "math", out },
      quiet,
    ).catch((error: unknown) => error);
    expect(TfgrpoError.hasCode(failure, "invalid_dataset")).toBe(true);
    expect((failure as Error).message).toMatch(
      new RegExp(`${sample("ragged.csv").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:3: \\(row\\): ragged row`),
    );
    expect(existsSync(out)).toBe(false);
  });

  it("refuses records without a question or answer, naming each line and field", async () => {
    const failure = await importDataset({
      files: [sample("worked-solutions.csv")],
      map: "question=source,answer=missing",
      domain: "math",
    }).catch((error: unknown) => error);
    expect((failure as Error).message).toMatch(
      /worked-solutions\.csv:2: answer: missing \(source: missing\)/,
    );
    expect(() => parseFieldMap("question")).toThrow(/must be FIELD=SOURCE/);
    expect(readFileSync(sample("README.md"), "utf8")).toMatch(/microsoft\/G-KV/);
  });

  it("reads Parquet, and refuses a Parquet file without a mapped column, naming it", async () => {
    const imported = await importDataset({
      files: [sample("aime-2024.sample.parquet")],
      map: "question=problem,answer=answer",
      domain: "math",
    });
    expect(imported.train.map((task) => task.answer)).toEqual(["204", "113", "371", "110", "025", "540"]);
    const failure = await importDataset({
      files: [sample("missing-answer.parquet")],
      map: "question=problem,answer=answer",
      domain: "math",
    }).catch((error: unknown) => error);
    expect(TfgrpoError.hasCode(failure, "invalid_dataset")).toBe(true);
    expect((failure as Error).message).toMatch(
      /missing-answer\.parquet:1: answer: missing column \(the file has: problem\)/,
    );
  });
});
