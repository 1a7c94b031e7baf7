import { cp, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadDataset, TfgrpoError } from "@tfgrpo/protocol";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { dataImport } from "../commands/data.js";

const quixbugsDir = fileURLToPath(new URL("../../../../test-data/quixbugs/", import.meta.url));
const quiet = { stderr: { write: () => true }, stdout: { write: () => true } };
const base = { seed: 1, extractBoxed: "auto" as const, answers: true };

/** Every file under `dir`, by path relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

describe("tfgrpo data import --preset quixbugs", () => {
  it("one task per program, split by program (seeded), the programs and tests, the settings and the reward", async () => {
    await using out = await temporaryDirectory("tfgrpo-quixbugs-");
    await dataImport([quixbugsDir], { ...base, preset: "quixbugs", outDir: out.path }, quiet);
    const [train, val, test] = await Promise.all(
      ["train", "val", "test"].map((split) =>
        loadDataset(path.join(out.path, `${split}.jsonl`), { domain: "code-repair" }),
      ),
    );
    expect([train!.length, val!.length, test!.length]).toEqual([14, 6, 10]);
    const programs = [...train!, ...val!, ...test!].map((task) => task.meta?.program as string);
    expect(new Set(programs).size).toBe(30);
    const gcd = [...train!, ...val!, ...test!].find((task) => task.meta?.program === "gcd")!;
    expect(gcd.id).toBe("quixbugs-gcd");
    expect(gcd.domain).toBe("code-repair");
    expect(gcd.answer).toBe("every test case of gcd passes (6 cases: 3 visible, 3 hidden)");
    expect(gcd.question).toContain("Repair the Python program `gcd.py`");
    expect(gcd.question).toContain("return gcd(a % b, b)");
    expect(gcd.question).toContain("Greatest Common Divisor");
    // Another seed, another split; the same seed, the same split.
    await using again = await temporaryDirectory("tfgrpo-quixbugs-");
    const same = await dataImport([quixbugsDir], { ...base, preset: "quixbugs", outDir: again.path }, quiet);
    expect(same.train.map((task) => task.id)).toEqual(train!.map((task) => task.id));
    const other = await dataImport(
      [quixbugsDir],
      { ...base, seed: 2, preset: "quixbugs", outDir: again.path },
      quiet,
    );
    expect(other.train.map((task) => task.id)).not.toEqual(train!.map((task) => task.id));

    const settings = parse(await readFile(path.join(out.path, "code-repair.yaml"), "utf8"));
    expect(settings.tools.domains["code-repair"]).toEqual(["mcp:code-repair"]);
    const server = settings.tools.servers["code-repair"];
    expect(server.environment).toBe("process");
    expect(server.args.slice(-4)).toEqual([
      "serve",
      "code-repair",
      "--data",
      path.join(out.path, "quixbugs"),
    ]);
    const critic = parse(await readFile(path.join(out.path, "code-repair.critic.yaml"), "utf8"));
    expect(critic.rewards).toEqual({ "code-repair": "code-repair-reward.mjs" });
    // The answer key stays where it was: nothing of correct_python_programs/ is copied.
    const copied = await filesUnder(path.join(out.path, "quixbugs"));
    expect(copied).toContain("python_programs/gcd.py");
    expect(copied).toContain("json_testcases/gcd.json");
    expect(copied.some((file) => file.startsWith("correct_python_programs"))).toBe(false);
  });

  it("no corrected program's text reaches a task or any file written (a canary planted in every one)", async () => {
    await using src = await temporaryDirectory("tfgrpo-quixbugs-src-");
    await using out = await temporaryDirectory("tfgrpo-quixbugs-out-");
    await cp(quixbugsDir, src.path, { recursive: true });
    const canary = "ANSWER-KEY-CANARY-5d1f";
    const correct = path.join(src.path, "correct_python_programs");
    for (const file of await readdir(correct)) {
      const text = await readFile(path.join(correct, file), "utf8");
      await writeFile(path.join(correct, file), `# ${canary}\n${text}`);
    }
    await dataImport([src.path], { ...base, preset: "quixbugs", outDir: out.path }, quiet);
    for (const file of await filesUnder(out.path)) {
      expect(await readFile(path.join(out.path, file), "utf8"), file).not.toContain(canary);
    }
  });

  it("refuses a broken folder naming the file, writing nothing", async () => {
    await using src = await temporaryDirectory("tfgrpo-quixbugs-src-");
    await using out = await temporaryDirectory("tfgrpo-quixbugs-out-");
    await cp(quixbugsDir, src.path, { recursive: true });
    await writeFile(
      path.join(src.path, "json_testcases", "knapsack.json"),
      "[[100, [[60, 10]]], 19]\n[[40, oops\n",
    );
    const error = await dataImport(
      [src.path],
      { ...base, preset: "quixbugs", outDir: out.path },
      quiet,
    ).catch((e: unknown) => e);
    expect(TfgrpoError.hasCode(error, "invalid_dataset")).toBe(true);
    expect((error as Error).message).toMatch(/json_testcases\/knapsack\.json: line 2: not JSON/);
    expect(await readdir(out.path)).toEqual([]);
  });
});
