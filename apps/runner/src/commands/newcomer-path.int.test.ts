// The newcomer's path through a preset (issue 42, item 4), as real CLI runs: `data import --preset tau2-retail` from
// a source checkout the way `pnpm tfgrpo` runs it (`--import tsx`, a bare name), into a folder under os.tmpdir();
// then, from another folder outside the repository, the eval the import printed, an eval that finds the settings
// beside its task file, and the refusals: a retail eval and learn without settings, an unknown preset.
import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { presetNames } from "../data-import/dataset-presets.js";
import { repositoryRoot, runCli } from "../testing/spawn-cli.js";

const retailDir = path.join(repositoryRoot, "test-data/tau2-bench-retail");
// Nothing from the shell this test runs in may stand in for the settings under test.
const env = {
  TFGRPO_ACTOR_CONFIG: undefined,
  TFGRPO_CRITIC_CONFIG: undefined,
  TFGRPO_CONFIG: undefined,
  TFGRPO_DB: undefined,
  npm_lifecycle_event: undefined,
};

/** `pnpm tfgrpo ARGS` as the root package.json runs it: tsx by its bare name, from the repository root. */
function runAsPnpmScript(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    ["--conditions=source", "--import", "tsx", "apps/runner/src/cli.ts", ...args],
    { cwd: repositoryRoot, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  const output = { stdout: "", stderr: "" };
  child.stdout.on("data", (chunk: Buffer) => {
    output.stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output.stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, ...output }));
  });
}

/** A printed command's arguments (after `tfgrpo`), with one option's value replaced. */
function withValue(args: string[], option: string, value: string): string[] {
  const index = args.indexOf(option);
  expect(index, `${option} in ${args.join(" ")}`).toBeGreaterThan(0);
  return [...args.slice(0, index + 1), value, ...args.slice(index + 2)];
}

const stderrLines = (stderr: string) =>
  stderr
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

describe("the newcomer's path through data import --preset tau2-retail", () => {
  it("the printed commands run from outside the repository; settings are found beside the tasks; a retail run without them is refused", async () => {
    await using out = await temporaryDirectory("tfgrpo-newcomer-out-");
    await using elsewhere = await temporaryDirectory("tfgrpo-newcomer-cwd-");
    const imported = await runAsPnpmScript([
      "data",
      "import",
      retailDir,
      "--preset",
      "tau2-retail",
      "--out-dir",
      out.path,
      "--val-share",
      "0.2",
    ]);
    expect(imported.code, imported.stderr).toBe(0);

    // The server command names every module by an absolute path: it resolves from any working directory. From a
    // built checkout it is the built CLI (no TypeScript loader per attempt); unbuilt, tsx by an absolute URL.
    const settings = parse(await readFile(path.join(out.path, "tau2-retail.yaml"), "utf8"));
    const server = settings.tools.servers["tau2-retail"] as { command: string; args: string[] };
    expect(path.isAbsolute(server.command)).toBe(true);
    if (server.args.includes("--import")) {
      const loader = server.args[server.args.indexOf("--import") + 1]!;
      expect(loader).toMatch(/^file:\/\/\/.*tsx/);
    } else {
      expect(server.args[0]).toMatch(/apps\/runner\/dist\/cli\.js$/);
      expect(path.isAbsolute(server.args[0]!)).toBe(true);
    }

    // The summary ends with the next commands, learn then eval, with --settings naming the folder.
    const printed = imported.stdout
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line.startsWith("tfgrpo "))
      .map((line) => line.split(" ").slice(1));
    expect(printed.map((args) => args[0])).toEqual(["learn", "eval"]);
    const [learnArgs, evalArgs] = printed as [string[], string[]];
    expect(learnArgs).toEqual([
      "learn",
      "--domain",
      "tau2-retail",
      "--train",
      path.join(out.path, "train.jsonl"),
      "--val",
      path.join(out.path, "val.jsonl"),
      "--settings",
      out.path,
      "--sim",
    ]);
    expect(evalArgs).toContain("--settings");

    // Two test tasks beside the imported ones, and the same two in a folder with no settings.
    const two = (await readFile(path.join(out.path, "test.jsonl"), "utf8"))
      .split("\n")
      .slice(0, 2)
      .join("\n");
    await writeFile(path.join(out.path, "two.jsonl"), `${two}\n`);
    await writeFile(path.join(elsewhere.path, "two.jsonl"), `${two}\n`);
    const db = path.join(elsewhere.path, "w.db");

    // The printed learn, as printed, up to its cost estimate (a whole run is a benchmark, not a test).
    const learnEstimate = await runCli([...learnArgs, "--db", db, "--dry-run"], { cwd: elsewhere.path, env });
    expect(learnEstimate.code, learnEstimate.stderr).toBe(0);

    // The printed eval from another folder: on two tasks, once each, against no library (nothing learned yet).
    let printedEval = withValue(evalArgs, "--data", path.join(out.path, "two.jsonl"));
    printedEval = withValue(printedEval, "--k", "1");
    const head = printedEval.indexOf("tau2-retail@head");
    printedEval = [...printedEval.slice(0, head - 1), ...printedEval.slice(head + 1)];
    const viaSettings = await runCli([...printedEval, "--db", db, "--concurrency", "2", "--json"], {
      cwd: elsewhere.path,
      env,
    });
    expect(viaSettings.code, viaSettings.stderr).toBe(0);
    expect(viaSettings.stderr).toContain(
      `settings of tau2-retail: actor ${path.join(out.path, "tau2-retail.yaml")} (--settings); critic ${path.join(out.path, "tau2-retail.critic.yaml")} (--settings)`,
    );
    expect(viaSettings.stderr).not.toContain("MaxListenersExceededWarning");
    const row = (JSON.parse(viaSettings.stdout) as { rows: Array<Record<string, unknown>> }).rows[0]!;
    // Every attempt had its environment: a fresh server process spawned from the written command, here.
    expect(row.infrastructureFailures ?? 0).toBe(0);
    expect(row.meanToolCalls).toBeGreaterThan(2);

    // No --settings: the files the import wrote beside the task file are used, and said.
    const discovered = await runCli(
      [
        "eval",
        "--domain",
        "tau2-retail",
        "--data",
        path.join(out.path, "two.jsonl"),
        "--library",
        "none",
        "--k",
        "1",
        "--sim",
        "--db",
        db,
        "--json",
      ],
      { cwd: elsewhere.path, env },
    );
    expect(discovered.code, discovered.stderr).toBe(0);
    expect(discovered.stderr).toContain(
      `settings of tau2-retail: actor ${path.join(out.path, "tau2-retail.yaml")} (beside --data); critic ${path.join(out.path, "tau2-retail.critic.yaml")} (beside --data)`,
    );
    const found = (JSON.parse(discovered.stdout) as { rows: Array<Record<string, unknown>> }).rows[0]!;
    expect(found.meanToolCalls).toBeGreaterThan(2);

    // The same tasks where no settings are: refused before the first rollout, in one line.
    for (const args of [
      ["eval", "--data", path.join(elsewhere.path, "two.jsonl"), "--library", "none"],
      [
        "learn",
        "--train",
        path.join(elsewhere.path, "two.jsonl"),
        "--val",
        path.join(elsewhere.path, "two.jsonl"),
      ],
    ]) {
      const refused = await runCli([...args, "--domain", "tau2-retail", "--sim", "--db", db], {
        cwd: elsewhere.path,
        env,
      });
      expect(refused.code, refused.stderr).toBe(1);
      const lines = stderrLines(refused.stderr).filter((line) => !line.startsWith("SIMULATED world"));
      expect(lines, refused.stderr).toEqual([
        "tfgrpo: domain tau2-retail needs the tool mcp:tau2-retail, which no actor settings give: pass --settings DIR (the folder `tfgrpo data import --preset` wrote) or set TFGRPO_ACTOR_CONFIG to its tau2-retail.yaml",
      ]);
    }
  }, 300_000);

  it("an unknown preset is refused naming every preset the import knows", async () => {
    await using out = await temporaryDirectory("tfgrpo-newcomer-preset-");
    const refused = await runCli(
      ["data", "import", retailDir, "--preset", "quixbug", "--out-dir", out.path],
      {
        env,
      },
    );
    expect(refused.code).toBe(1);
    expect(stderrLines(refused.stderr)).toEqual([
      `tfgrpo: --preset quixbug: unknown (known: ${presetNames.join(", ")})`,
    ]);
    expect(presetNames).toEqual(expect.arrayContaining(["tau2-retail", "quixbugs"]));
  }, 60_000);
});
