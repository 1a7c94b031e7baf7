import { writeFile } from "node:fs/promises";
import path from "node:path";
import { mathVerifierCases } from "@tfgrpo/critic/testing";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { runCli } from "../testing/spawn-cli.js";

/** Runs the real CLI (as `pnpm tfgrpo` does) with the given stdin. */
const cli = (args: string[], stdin = "") => runCli(args, { stdin });

describe("tfgrpo reward", () => {
  it("scores the whole math case table from a file, one output line per case", async () => {
    await using dir = await temporaryDirectory("tfgrpo-reward-");
    const input = path.join(dir.path, "cases.jsonl");
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
    await using dir = await temporaryDirectory("tfgrpo-reward-");
    const module = path.join(dir.path, "length-reward.ts");
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
