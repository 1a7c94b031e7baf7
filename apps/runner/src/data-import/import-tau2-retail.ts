import { copyFile, mkdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { seededRandom, type Task, TfgrpoError } from "@tfgrpo/protocol";
import {
  loadRetailDb,
  type Tau2Task,
  tau2RetailDomain,
  tau2TaskSchema,
  toRetailTask,
} from "@tfgrpo/tau2-retail";
import { stringify } from "yaml";
import { z } from "zod";
import type { CommandOutput } from "../cli-options/command-output.js";
import { jsonl, nextCommands, thisCliServing, writeAtomically } from "./preset-files.js";
import { presetDomainRequirements } from "./preset-requirements.js";

export interface Tau2RetailImportOptions {
  /** τ²-bench's retail directory as downloaded (db.json, policy.md, tasks.json, split_tasks.json). */
  dir: string;
  outDir: string;
  /** Share of the train split held out as validation (val.jsonl); the rest stays train.jsonl. */
  valShare?: number;
  seed: number;
  /** How the domain's MCP server is started (default: this very CLI, `env serve tau2-retail --data OUT`). */
  serverCommand?: { command: string; args: string[] };
}

export interface Tau2RetailImport {
  train: Task[];
  val: Task[];
  test: Task[];
  /** The files written, by role. */
  files: {
    train: string;
    test: string;
    val?: string;
    db: string;
    policy: string;
    config: string;
    criticConfig: string;
    reward: string;
  };
}

const retailRequirements = presetDomainRequirements["tau2-retail"]!;

const splitSchema = z.object({ train: z.array(z.string()), test: z.array(z.string()) }).loose();

async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new TfgrpoError(
      "not_found",
      `${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); a τ²-bench ` +
        "retail directory has db.json, policy.md, tasks.json and split_tasks.json",
      { details: { file } },
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new TfgrpoError("invalid_dataset", `${file}: not JSON: ${(error as Error).message}`, {
      details: { file },
    });
  }
}

function parseTasks(value: unknown, file: string): Map<string, Tau2Task> {
  if (!Array.isArray(value))
    throw new TfgrpoError("invalid_dataset", `${file}: expected a JSON array of tasks`);
  const tasks = new Map<string, Tau2Task>();
  value.forEach((raw, index) => {
    const parsed = tau2TaskSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new TfgrpoError(
        "invalid_dataset",
        `${file}: task ${index}: ${issue.path.join(".") || "(root)"}: ${issue.message}`,
        { details: { file, index, field: issue.path.join(".") } },
      );
    }
    if (tasks.has(parsed.data.id)) {
      throw new TfgrpoError("invalid_dataset", `${file}: task ${index}: id ${parsed.data.id} appears twice`);
    }
    tasks.set(parsed.data.id, parsed.data);
  });
  return tasks;
}

/** The actor's system prompt for the domain: the benchmark's policy, verbatim. */
export function retailAgentPrompt(policy: string): string {
  return [
    "You are a customer-service agent of an online retail store. You talk with one customer, use the tools to",
    "look things up and to act, and follow the store's policy below exactly.",
    "",
    "<policy>",
    policy.trim(),
    "</policy>",
  ].join("\n");
}

/** The settings file of the domain (TFGRPO_ACTOR_CONFIG / --actor-config): its prompt, its MCP server, its limits. */
export function retailDomainSettings(policy: string, server: { command: string; args: string[] }) {
  return {
    actor: {
      // τ² gives an agent up to 30 steps per side; conversations alternate tool calls and replies.
      maxSteps: 60,
      maxToolCalls: 40,
      domains: {
        [tau2RetailDomain]: { tools: [`mcp:${tau2RetailDomain}`], systemPrompt: retailAgentPrompt(policy) },
      },
    },
    tools: {
      domains: { [tau2RetailDomain]: [`mcp:${tau2RetailDomain}`] },
      servers: {
        [tau2RetailDomain]: {
          command: server.command,
          args: server.args,
          // A server process per attempt at a time: each attempt has its own copy of the database. The warm pool
          // hands a process to the next attempt after a clean one, reset first: a reset replaces the database with
          // a fresh copy of db.json, its only state (retail-mcp-server.int.test.ts proves it over every task's
          // writes).
          environment: "process",
          reuse: true,
        },
      },
    },
  };
}

/**
 * The domain's reward module (critic settings `rewards:`): τ²'s rule over the trajectory, with this directory's
 * db.json as the start. It imports @tfgrpo/tau2-retail from where this CLI has it (resolved now), since the data
 * directory has no node_modules of its own.
 */
export function retailRewardModule(packageUrl: string): string {
  return [
    "// τ²-bench retail's reward (written by `tfgrpo data import --preset tau2-retail`): 1 when the attempt's final",
    "// database equals the gold replay and every communicate_info string was told to the customer, else 0.",
    'import { fileURLToPath } from "node:url";',
    `import { createRetailTrajectoryReward, loadRetailDb } from ${JSON.stringify(packageUrl)};`,
    "",
    'const reward = createRetailTrajectoryReward(loadRetailDb(fileURLToPath(new URL("./db.json", import.meta.url))));',
    "",
    "export default function tau2RetailReward(task, finalAnswer, trajectory) {",
    "  return reward(task, finalAnswer, trajectory ?? {});",
    "}",
    "",
  ].join("\n");
}

/**
 * `tfgrpo data import DIR --preset tau2-retail --out-dir D`: τ²-bench retail's tasks as tfgrpo tasks (train 74,
 * test 40, optionally a validation share of train), its database and policy, and the domain's settings file naming
 * the MCP server. Everything is read and checked before anything is written.
 */
export async function importTau2Retail(
  options: Tau2RetailImportOptions,
  output: CommandOutput,
): Promise<Tau2RetailImport> {
  const dir = path.resolve(options.dir);
  const outDir = path.resolve(options.outDir);
  const file = (name: string) => path.join(dir, name);
  // The database is loaded (and validated) so a broken download is refused here, not at the first rollout.
  loadRetailDb(file("db.json"));
  let policy: string;
  try {
    policy = await readFile(file("policy.md"), "utf8");
  } catch {
    throw new TfgrpoError("not_found", `${file("policy.md")}: missing (the agent policy of τ²-bench retail)`);
  }
  const tasks = parseTasks(await readJson(file("tasks.json")), file("tasks.json"));
  const splitValue = splitSchema.safeParse(await readJson(file("split_tasks.json")));
  if (!splitValue.success) {
    throw new TfgrpoError(
      "invalid_dataset",
      `${file("split_tasks.json")}: expected {"train": [ids], "test": [ids]}: ${splitValue.error.issues[0]!.message}`,
    );
  }
  const pick = (ids: string[], name: string) =>
    ids.map((id) => {
      const task = tasks.get(id);
      if (!task) {
        throw new TfgrpoError(
          "invalid_dataset",
          `${file("split_tasks.json")}: ${name} names task ${id}, which tasks.json does not have`,
        );
      }
      // The task says what its domain cannot run without: learn and eval refuse it without them.
      const retail = toRetailTask(task);
      return { ...retail, meta: { ...retail.meta, requires: retailRequirements } };
    });
  let train = pick(splitValue.data.train, "train");
  const test = pick(splitValue.data.test, "test");
  const overlap = train.find((task) => test.some((other) => other.id === task.id));
  if (overlap) {
    throw new TfgrpoError(
      "invalid_dataset",
      `${file("split_tasks.json")}: ${overlap.id} is in train and test`,
    );
  }
  let val: Task[] = [];
  if (options.valShare !== undefined && options.valShare > 0) {
    const random = seededRandom(options.seed);
    const shuffled = [...train];
    for (let index = shuffled.length - 1; index > 0; index--) {
      const other = Math.floor(random() * (index + 1));
      [shuffled[index], shuffled[other]] = [shuffled[other]!, shuffled[index]!];
    }
    const held = new Set(
      shuffled.slice(0, Math.round(train.length * options.valShare)).map((task) => task.id),
    );
    val = train.filter((task) => held.has(task.id));
    train = train.filter((task) => !held.has(task.id));
  }

  await mkdir(outDir, { recursive: true });
  const files: Tau2RetailImport["files"] = {
    train: path.join(outDir, "train.jsonl"),
    test: path.join(outDir, "test.jsonl"),
    ...(val.length > 0 ? { val: path.join(outDir, "val.jsonl") } : {}),
    db: path.join(outDir, "db.json"),
    policy: path.join(outDir, "policy.md"),
    config: path.join(outDir, `${tau2RetailDomain}.yaml`),
    criticConfig: path.join(outDir, `${tau2RetailDomain}.critic.yaml`),
    reward: path.join(outDir, `${tau2RetailDomain}-reward.mjs`),
  };
  const settings = retailDomainSettings(
    policy,
    options.serverCommand ?? thisCliServing(tau2RetailDomain, outDir),
  );
  try {
    await writeAtomically(files.train, jsonl(train));
    await writeAtomically(files.test, jsonl(test));
    if (files.val) await writeAtomically(files.val, jsonl(val));
    else await rm(path.join(outDir, "val.jsonl"), { force: true });
    await copyFile(file("db.json"), files.db);
    await writeAtomically(files.policy, policy);
    await copyFile(file("LICENSE"), path.join(outDir, "LICENSE")).catch(() => undefined);
    await writeAtomically(
      files.config,
      `# τ²-bench retail (${tau2RetailDomain}): the actor's prompt (the policy) and the MCP server of its tools.\n` +
        `# Use it as the actor settings file: --actor-config ${files.config} (or TFGRPO_ACTOR_CONFIG).\n` +
        stringify(settings, { lineWidth: 0 }),
    );
    await writeAtomically(files.reward, retailRewardModule(import.meta.resolve("@tfgrpo/tau2-retail")));
    await writeAtomically(
      files.criticConfig,
      "# τ²-bench retail: the critic's reward for the domain (TFGRPO_CRITIC_CONFIG); paths from this folder.\n" +
        stringify({ rewards: { [tau2RetailDomain]: path.basename(files.reward) } }),
    );
  } catch (error) {
    throw new TfgrpoError("storage_error", `cannot write into ${outDir}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  output.stdout.write(
    `imported τ²-bench retail: ${train.length} training${val.length > 0 ? `, ${val.length} validation` : ""} and ` +
      `${test.length} test tasks into ${outDir} (db.json, policy.md, the actor settings ${path.basename(files.config)}, ` +
      `the critic settings ${path.basename(files.criticConfig)} with the reward ${path.basename(files.reward)})\n`,
  );
  output.stdout.write(nextCommands(tau2RetailDomain, files, outDir));
  return { train, val, test, files };
}
