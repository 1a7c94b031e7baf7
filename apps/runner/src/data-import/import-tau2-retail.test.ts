import { cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadDataset, TfgrpoError } from "@tfgrpo/protocol";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { retailGoldOf } from "@tfgrpo/tau2-retail";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { dataImport } from "../commands/data.js";
import { absoluteExecArgv, builtCliBeside, nextCommands, thisCliServing } from "./preset-files.js";

const retailDir = fileURLToPath(new URL("../../../../test-data/tau2-bench-retail/", import.meta.url));
const quiet = { stderr: { write: () => true }, stdout: { write: () => true } };
const base = { seed: 1, extractBoxed: "auto" as const, answers: true };

describe("tfgrpo data import --preset tau2-retail", () => {
  it("writes the 74 train and 40 test tasks, the database, the policy and the domain's settings", async () => {
    await using out = await temporaryDirectory("tfgrpo-tau2-");
    await dataImport([retailDir], { ...base, preset: "tau2-retail", outDir: out.path }, quiet);
    const train = await loadDataset(path.join(out.path, "train.jsonl"), { domain: "tau2-retail" });
    const test = await loadDataset(path.join(out.path, "test.jsonl"), { domain: "tau2-retail" });
    expect([train.length, test.length]).toEqual([74, 40]);
    const split = JSON.parse(await readFile(path.join(retailDir, "split_tasks.json"), "utf8"));
    expect(train.map((task) => task.meta?.tau2)).toEqual(
      split.train.map((id: string) => expect.objectContaining({ taskId: id })),
    );
    const first = train[0]!;
    expect(first.id).toBe("tau2-retail-0");
    // The scenario is the user's; the gold is the ground truth; the question carries neither.
    expect(first.meta?.userScenario).toContain("You received your order #W2378156");
    expect(first.meta?.userScenario).toContain("Known info: You are Yusuf Rossi in zip code 19122.");
    expect(first.question).not.toContain("W2378156");
    // What its domain cannot run without, said by the task itself.
    expect(first.meta?.requires).toEqual({ tools: ["mcp:tau2-retail"], reward: true });
    expect(retailGoldOf(first).actions.at(-1)).toMatchObject({
      name: "exchange_delivered_order_items",
      arguments: { order_id: "#W2378156" },
    });
    const db = await readFile(path.join(out.path, "db.json"), "utf8");
    expect(db).toBe(await readFile(path.join(retailDir, "db.json"), "utf8"));
    const settings = parse(await readFile(path.join(out.path, "tau2-retail.yaml"), "utf8"));
    const policy = await readFile(path.join(retailDir, "policy.md"), "utf8");
    expect(settings.actor.domains["tau2-retail"].systemPrompt).toContain(policy.trim());
    expect(settings.tools.domains["tau2-retail"]).toEqual(["mcp:tau2-retail"]);
    const server = settings.tools.servers["tau2-retail"];
    expect(server.environment).toBe("process");
    expect(server.args.slice(-4)).toEqual(["serve", "tau2-retail", "--data", out.path]);
    const critic = parse(await readFile(path.join(out.path, "tau2-retail.critic.yaml"), "utf8"));
    expect(critic.rewards).toEqual({ "tau2-retail": "tau2-retail-reward.mjs" });
    // The reward module scores a trajectory by τ²'s rule against the directory's db.json.
    const module = (await import(path.join(out.path, "tau2-retail-reward.mjs"))) as {
      default: (
        task: unknown,
        answer: string | null,
        trajectory: unknown,
      ) => { reward: number; reason: string };
    };
    expect(module.default(first, null, { messages: [], environment: { diff: [] } })).toMatchObject({
      reward: 0,
    });
    // A task whose gold only reads and tells nothing is solved by an attempt that changed nothing.
    const readOnly = train.find((task) => {
      const gold = retailGoldOf(task);
      return (
        gold.communicate_info.length === 0 &&
        gold.actions.every((a) => !/^(cancel|modify|return|exchange)_/.test(a.name))
      );
    })!;
    expect(module.default(readOnly, null, { messages: [], environment: { diff: [] } }).reward).toBe(1);
  });

  it("holds a validation share out of train only, by seed", async () => {
    await using out = await temporaryDirectory("tfgrpo-tau2-");
    const imported = await dataImport(
      [retailDir],
      { ...base, preset: "tau2-retail", outDir: out.path, valShare: 0.2 },
      quiet,
    );
    expect([imported.train.length, imported.val.length]).toEqual([59, 15]);
    const val = await loadDataset(path.join(out.path, "val.jsonl"), { domain: "tau2-retail" });
    const test = await loadDataset(path.join(out.path, "test.jsonl"), { domain: "tau2-retail" });
    expect(val.some((task) => test.some((other) => other.id === task.id))).toBe(false);
    expect(val.some((task) => imported.train.some((other) => other.id === task.id))).toBe(false);
  });

  it("refuses a broken download with one error naming the file and the task, writing nothing", async () => {
    await using src = await temporaryDirectory("tfgrpo-tau2-src-");
    await using out = await temporaryDirectory("tfgrpo-tau2-out-");
    await cp(retailDir, src.path, { recursive: true });
    const tasks = JSON.parse(await readFile(path.join(src.path, "tasks.json"), "utf8"));
    delete tasks[3].user_scenario.instructions.reason_for_call;
    await writeFile(path.join(src.path, "tasks.json"), JSON.stringify(tasks));
    const error = await dataImport(
      [src.path],
      { ...base, preset: "tau2-retail", outDir: out.path },
      quiet,
    ).catch((e: unknown) => e);
    expect(TfgrpoError.hasCode(error, "invalid_dataset")).toBe(true);
    expect((error as Error).message).toMatch(
      /tasks\.json: task 3: user_scenario\.instructions\.reason_for_call/,
    );
    await expect(readFile(path.join(out.path, "train.jsonl"))).rejects.toThrow();
  });
});

describe("absoluteExecArgv: the server command written into the settings runs from any folder", () => {
  it("makes the modules Node's flags load absolute, and leaves everything else as it was", () => {
    const resolve = (specifier: string) => `/repo/node_modules/${specifier}/dist/loader.mjs`;
    expect(
      absoluteExecArgv(
        [
          "--conditions=source",
          "--import",
          "tsx",
          "--import=file:///already/absolute.mjs",
          "--require",
          "./setup.cjs",
          "--max-old-space-size=4096",
        ],
        resolve,
      ),
    ).toEqual([
      "--conditions=source",
      "--import",
      "file:///repo/node_modules/tsx/dist/loader.mjs",
      "--import=file:///already/absolute.mjs",
      "--require",
      path.resolve("setup.cjs"),
      "--max-old-space-size=4096",
    ]);
  });

  it("resolves tsx as Node resolved it for this process", () => {
    const [, loader] = absoluteExecArgv(["--import", "tsx"]);
    expect(loader).toMatch(/^file:\/\/\/.*tsx.*\.mjs$/);
  });
});

describe("nextCommands: the printed commands run as pasted", () => {
  it("keeps a CLI name of two words as two words and quotes only arguments that need it", () => {
    const printed = nextCommands(
      "tau2-retail",
      { train: "/d/train.jsonl", val: "/d/val.jsonl", test: "/d/my tests.jsonl" },
      "/d",
      "pnpm tfgrpo",
    );
    const lines = printed.split("\n").filter((line) => line.startsWith("  pnpm tfgrpo "));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      "  pnpm tfgrpo learn --domain tau2-retail --train /d/train.jsonl --val /d/val.jsonl --settings /d --sim",
    );
    expect(lines[1]).toContain("--data '/d/my tests.jsonl'");
  });
});

describe("thisCliServing: a server spawned per attempt starts from built code when there is some", () => {
  const repo = path.resolve("/repo");
  const source = path.join(repo, "apps/runner/src/cli.ts");
  const built = path.join(repo, "apps/runner/dist/cli.js");

  it("finds the built CLI beside a source checkout's src/cli.ts, and nothing beside anything else", () => {
    expect(builtCliBeside(source, (file) => file === built)).toBe(built);
    expect(builtCliBeside(source, () => false)).toBeUndefined();
    expect(builtCliBeside(built, () => true)).toBeUndefined();
  });

  it("writes node and the built CLI, without the TypeScript loader, when dist/cli.js exists here", () => {
    const here = fileURLToPath(new URL("../cli.ts", import.meta.url));
    const server = thisCliServing("tau2-retail", "/data/retail", {
      execArgv: ["--conditions=source", "--import", "tsx"],
      script: here,
    });
    const dist = builtCliBeside(here);
    expect(server.command).toBe(process.execPath);
    if (dist) {
      // The usual case in a checkout that ran `pnpm build` (the test suite builds first).
      expect(server.args).toEqual([dist, "env", "serve", "tau2-retail", "--data", "/data/retail"]);
      expect(path.isAbsolute(dist)).toBe(true);
    } else {
      expect(server.args.slice(0, 2)).toEqual(["--conditions=source", "--import"]);
      expect(server.args[2]).toMatch(/^file:\/\/\/.*tsx/);
      expect(server.args[3]).toBe(here);
    }
  });
});
