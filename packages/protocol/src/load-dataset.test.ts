import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TfgrpoError } from "./errors.js";
import { loadDataset, parseDataset } from "./load-dataset.js";

describe("loadDataset", () => {
  it("loads tasks, keeps numeric answers as text and extra fields as meta", () => {
    const text = [
      JSON.stringify({ id: "a", question: "1+1?", answer: 2 }),
      "",
      JSON.stringify({ question: "Capital of France?", answer: "Paris", source: "quiz" }),
      JSON.stringify({ id: 7, question: "open question" }),
    ].join("\n");
    const tasks = parseDataset(text, { file: "train.jsonl", domain: "math" });
    expect(tasks).toEqual([
      { id: "a", domain: "math", question: "1+1?", answer: "2" },
      {
        id: "train-3",
        domain: "math",
        question: "Capital of France?",
        answer: "Paris",
        meta: { source: "quiz" },
      },
      { id: "7", domain: "math", question: "open question" },
    ]);
  });

  it("reports every bad line as file:line: field: problem and loads nothing", () => {
    const text = [
      JSON.stringify({ id: "ok", question: "fine", answer: "1" }),
      "{not json",
      JSON.stringify({ id: "x", answer: "3" }),
      JSON.stringify({ id: "ok", question: "dup", answer: "1" }),
      JSON.stringify({ question: "wrong domain", domain: "web" }),
      "[1,2]",
    ].join("\n");
    let error: unknown;
    try {
      parseDataset(text, { file: "data/val.jsonl", domain: "math" });
    } catch (caught) {
      error = caught;
    }
    expect(TfgrpoError.hasCode(error, "invalid_dataset")).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain("data/val.jsonl:2: (line): invalid JSON");
    expect(message).toContain("data/val.jsonl:3: question:");
    expect(message).toContain('data/val.jsonl:4: id: duplicate id "ok" (first on line 1)');
    expect(message).toContain('data/val.jsonl:5: domain: is "web"');
    expect(message).toContain("data/val.jsonl:6: (line): expected a JSON object");
    expect((error as TfgrpoError).details?.problems).toHaveLength(5);
  });

  it("requires answers when asked", () => {
    expect(() =>
      parseDataset(JSON.stringify({ question: "q" }), {
        file: "t.jsonl",
        domain: "math",
        requireAnswer: true,
      }),
    ).toThrow(/t\.jsonl:1: answer: is required/);
  });

  it("reads a real file and names a missing one", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-ds-"));
    const file = path.join(dir, "d.jsonl");
    await writeFile(file, `${JSON.stringify({ question: "q", answer: "a" })}\r\n`);
    await expect(loadDataset(file, { domain: "web" })).resolves.toHaveLength(1);
    await expect(loadDataset(path.join(dir, "missing.jsonl"), { domain: "web" })).rejects.toThrow(
      /missing\.jsonl: cannot read/,
    );
  });

  it("refuses a file that is not UTF-8, naming the line, instead of decoding it lossily", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-ds-"));
    const file = path.join(dir, "latin1.jsonl");
    const good = Buffer.from(`${JSON.stringify({ question: "Where?", answer: "Paris" })}\n`, "utf8");
    const bad = Buffer.from('{"question": "Caf\xe9 owner?", "answer": "x"}\n', "latin1");
    await writeFile(file, Buffer.concat([good, bad]));
    await expect(loadDataset(file, { domain: "web" })).rejects.toThrow(/latin1\.jsonl:2: not valid UTF-8/);
  });

  it("refuses lines and fields over their size limits, with the limit and how to change it", () => {
    const big = "x".repeat(2000);
    const text = `${JSON.stringify({ question: big, answer: "1" })}\n${JSON.stringify({ question: "q", answer: "1" })}`;
    expect(() => parseDataset(text, { file: "t.jsonl", domain: "math", maxLineBytes: 500 })).toThrow(
      /t\.jsonl:1: \(line\): \d+ bytes, over the limit of 500 \(TFGRPO_DATASET_MAX_LINE_BYTES\)/,
    );
    expect(() => parseDataset(text, { file: "t.jsonl", domain: "math", maxFieldChars: 100 })).toThrow(
      /t\.jsonl:1: question: 2000 characters, over the limit of 100/,
    );
    expect(parseDataset(text, { file: "t.jsonl", domain: "math" })).toHaveLength(2);
  });
});
