import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { mathVerifierCases } from "@tfgrpo/critic/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

/** Runs the real CLI (as `pnpm tfgrpo` does) with the given stdin. */
function cli(args: string[], stdin = ""): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--conditions=source", "--import", "tsx", "apps/runner/src/cli.ts", ...args],
      {
        cwd: root,
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe("tfgrpo reward", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-reward-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("scores the whole math case table from a file, one output line per case", async () => {
    const input = path.join(dir, "cases.jsonl");
    await writeFile(
      input,
      mathVerifierCases.map((c) => JSON.stringify({ gold: c.gold, pred: c.pred, note: c.note })).join("\n"),
    );
    const result = await cli(["reward", "math", "--input", input]);
    expect(result.stderr).toContain(`${mathVerifierCases.length} case(s)`);
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(mathVerifierCases.length);
    lines.forEach((line, index) => {
      const expected = mathVerifierCases[index]!;
      expect(Object.keys(line)).toEqual(["gold", "pred", "reward", "extracted"]);
      expect({ gold: line.gold, reward: line.reward }).toEqual({
        gold: expected.gold,
        reward: expected.expected,
      });
    });
  });

  it("uses a user reward module and names the bad line of stdin", async () => {
    const module = path.join(dir, "length-reward.ts");
    await writeFile(
      module,
      "export default (task: { answer?: string }, answer: string | null) =>\n" +
        "  answer === task.answer ? 1 : { reward: 0.25, reason: 'not the same' };\n",
    );
    const ok = await cli(
      ["reward", "module", "--module", module],
      '{"gold": "a", "pred": "a"}\n{"gold": 7, "pred": "8"}\n',
    );
    expect(ok.code).toBe(0);
    expect(
      ok.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { gold: "a", pred: "a", reward: 1, extracted: "a" },
      { gold: 7, pred: "8", reward: 0.25, extracted: "8" },
    ]);

    const bad = await cli(["reward", "math"], '{"gold": "1", "pred": "1"}\n{"gold": "1"}\n');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("stdin:2: pred: must be a string, a number or null");
  });
});
