import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { loadDataset } from "@tfgrpo/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stratifiedOrder, stratifiedOrderOf } from "./stratified-order.js";
import { openTaskPool, taskPoolOf } from "./task-pool.js";

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-task-pool-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("openTaskPool", () => {
  it("holds what loadDataset reads, by reference: the same tasks, ids, order and strata", async () => {
    const file = path.join(directory, "train.jsonl");
    const lines = [
      JSON.stringify({ id: "a", question: "Café? ✓", answer: "1", meta: { family: "x" } }),
      "",
      JSON.stringify({ question: "No id here", answer: 2, meta: { family: "y" } }),
      JSON.stringify({ id: 7, question: "Seven", answer: "7" }),
      JSON.stringify({ id: "long", question: "q ".repeat(700_000), answer: "3", meta: { family: "x" } }),
    ];
    // A byte-order mark, Windows line ends and a last line without its newline.
    await writeFile(file, `\uFEFF${lines.join("\r\n")}`);
    // The long line crosses the first 1 MiB chunk the pool's reader reads.
    const options = {
      domain: "math",
      requireAnswer: true,
      maxLineBytes: 2_000_000,
      maxFieldChars: 2_000_000,
    };
    const expected = await loadDataset(file, options);
    const pool = openTaskPool(file, options);
    expect(pool.size).toBe(4);
    expect(pool.ids).toEqual(expected.map((task) => task.id));
    expect(pool.ids).toContain("train-3");
    // Read back in any order, and again.
    for (const task of [...expected].reverse()) expect(pool.get(task.id)).toEqual(task);
    expect([...pool]).toEqual(expected);
    expect(pool.stratifyField).toBe("meta.family");
    expect(stratifiedOrderOf(pool.ids, (index) => pool.stratumOf(index), 3)).toEqual(
      stratifiedOrder(expected, "meta.family", 3),
    );
    expect(() => pool.get("nope")).toThrow(/task nope is not in .*train\.jsonl/);
    expect(taskPoolOf(expected).stratifyField).toBe("meta.family");
    expect(openTaskPool(file, { ...options, stratifyBy: "none" }).stratifyField).toBeNull();
    expect(() => openTaskPool(file, { ...options, stratifyBy: "meta.level" })).toThrow(
      /no training task has the field "meta.level"/,
    );
  });

  it("refuses a file with bad lines whole, naming each line as loadDataset does", async () => {
    const file = path.join(directory, "bad.jsonl");
    await writeFile(
      file,
      [
        JSON.stringify({ id: "a", question: "q", answer: "1" }),
        "{not json",
        JSON.stringify({ id: "a", question: "again", answer: "1" }),
        JSON.stringify({ id: "b", question: "no answer" }),
      ].join("\n"),
    );
    const options = { domain: "math", requireAnswer: true };
    const expected = await loadDataset(file, options).catch((error: Error) => error.message);
    expect(() => openTaskPool(file, options)).toThrow(expected as string);
    expect(expected).toMatch(/bad\.jsonl: 3 bad line\(s\), nothing loaded/);
    await writeFile(file, Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]));
    expect(() => openTaskPool(file, options)).toThrow(/bad\.jsonl:1: not valid UTF-8/);
  });
});
