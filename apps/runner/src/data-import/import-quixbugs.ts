import { cp, mkdir, rm } from "node:fs/promises";
import path from "node:path";
import {
  codeRepairDomain,
  listQuixbugsPrograms,
  loadQuixbugsProgram,
  quixbugsLayout,
  toRepairTask,
} from "@tfgrpo/code-repair";
import { seededRandom, type Task, TfgrpoError } from "@tfgrpo/protocol";
import { stringify } from "yaml";
import type { CommandOutput } from "../cli-options/command-output.js";
import { jsonl, nextCommands, thisCliServing, writeAtomically } from "./preset-files.js";
import { presetDomainRequirements } from "./preset-requirements.js";

export interface QuixbugsImportOptions {
  /** A QuixBugs directory as upstream lays it out (python_programs/, python_testcases/, json_testcases/). */
  dir: string;
  outDir: string;
  /** Share of the programs held out as validation (default 0.2). */
  valShare?: number;
  /** Share of the programs held out as the test split (default 1/3). */
  testShare?: number;
  seed: number;
  /** How the domain's MCP server is started (default: this very CLI, `env serve code-repair --data OUT/quixbugs`). */
  serverCommand?: { command: string; args: string[] };
}

export interface QuixbugsImport {
  train: Task[];
  val: Task[];
  test: Task[];
  files: {
    train: string;
    val: string;
    test: string;
    data: string;
    config: string;
    criticConfig: string;
    reward: string;
  };
}

/** The actor's system prompt for the domain. */
export const repairAgentPrompt = [
  "You repair defective Python programs. Each task gives one program whose defect is on a single line, in a",
  "workspace you reach with tools: read the file, edit it, run code against it and run its visible tests. Find the",
  "defect from the code, its docstring and what the runs show; change the program, not the tests. The final file",
  "is judged on every test case of the program, including cases you cannot see.",
].join("\n");

/** The settings file of the domain (TFGRPO_ACTOR_CONFIG / --actor-config): its prompt, its MCP server, its limits. */
export function repairDomainSettings(server: { command: string; args: string[] }) {
  return {
    actor: {
      maxSteps: 30,
      maxToolCalls: 40,
      domains: {
        [codeRepairDomain]: { tools: [`mcp:${codeRepairDomain}`], systemPrompt: repairAgentPrompt },
      },
    },
    tools: {
      domains: { [codeRepairDomain]: [`mcp:${codeRepairDomain}`] },
      servers: {
        [codeRepairDomain]: {
          command: server.command,
          args: server.args,
          // A fresh server process per attempt: each attempt has its own workspace.
          environment: "process",
        },
      },
    },
  };
}

/**
 * The domain's reward module (critic settings `rewards:`): the final file on every test case, in the sandbox. It
 * imports @tfgrpo/code-repair from where this CLI has it (resolved now): the data directory has no node_modules.
 */
export function repairRewardModule(packageUrl: string): string {
  return [
    "// QuixBugs code repair's reward (written by `tfgrpo data import --preset quixbugs`): the attempt's final program",
    "// file run in the sandbox on every test case of its program; the reward is the passing share (1: solved).",
    'import { fileURLToPath } from "node:url";',
    `import { createProgramCatalog, createRepairReward, createRepairSandbox } from ${JSON.stringify(packageUrl)};`,
    "",
    "// The CPU-time limit of one test case (default 4000 ms): TFGRPO_REPAIR_CASE_TIMEOUT_MS.",
    "const caseTimeoutMs = Number(process.env.TFGRPO_REPAIR_CASE_TIMEOUT_MS) || undefined;",
    "// The reward: the passing share (default) or, with TFGRPO_REPAIR_REWARD=solved, 1 only when every case passes.",
    'const mode = process.env.TFGRPO_REPAIR_REWARD === "solved" ? "solved" : "share";',
    "const reward = createRepairReward({",
    '  catalog: createProgramCatalog(fileURLToPath(new URL("./quixbugs/", import.meta.url))),',
    "  sandbox: createRepairSandbox(caseTimeoutMs ? { caseTimeoutMs } : {}),",
    "  mode,",
    "});",
    "",
    "export default async function codeRepairReward(task, finalAnswer, trajectory) {",
    "  const result = await reward(task, finalAnswer, trajectory ?? {});",
    "  return { reward: result.reward, grade: result.grade, reason: result.reason };",
    "}",
    "",
  ].join("\n");
}

/**
 * `tfgrpo data import DIR --preset quixbugs --out-dir D`: one task per program, split train / val / test by program
 * (seeded), the programs and their tests copied beside them (never the corrected programs: the answer key stays
 * in DIR), and the domain's settings naming its MCP server and its reward. Every program is read and checked before
 * anything is written.
 */
export async function importQuixbugs(
  options: QuixbugsImportOptions,
  output: CommandOutput,
): Promise<QuixbugsImport> {
  const dir = path.resolve(options.dir);
  const outDir = path.resolve(options.outDir);
  const names = listQuixbugsPrograms(dir);
  if (names.length < 3) {
    throw new TfgrpoError(
      "invalid_dataset",
      `${path.join(dir, quixbugsLayout.programs)}: ${names.length} programs with tests; a split needs 3 at least`,
    );
  }
  const requires = presetDomainRequirements["code-repair"]!;
  const tasks = names.map((name) => {
    const task = toRepairTask(loadQuixbugsProgram(dir, name));
    return { ...task, meta: { ...task.meta, requires } };
  });
  const random = seededRandom(options.seed);
  const shuffled = [...tasks];
  for (let index = shuffled.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [shuffled[index], shuffled[other]] = [shuffled[other]!, shuffled[index]!];
  }
  const testCount = Math.max(1, Math.round(tasks.length * (options.testShare ?? 1 / 3)));
  const valCount = Math.max(1, Math.round(tasks.length * (options.valShare ?? 0.2)));
  const byName = (list: Task[]) =>
    [...list].sort((a, b) => String(a.meta?.program).localeCompare(String(b.meta?.program)));
  const test = byName(shuffled.slice(0, testCount));
  const val = byName(shuffled.slice(testCount, testCount + valCount));
  const train = byName(shuffled.slice(testCount + valCount));

  const data = path.join(outDir, "quixbugs");
  const files: QuixbugsImport["files"] = {
    train: path.join(outDir, "train.jsonl"),
    val: path.join(outDir, "val.jsonl"),
    test: path.join(outDir, "test.jsonl"),
    data,
    config: path.join(outDir, `${codeRepairDomain}.yaml`),
    criticConfig: path.join(outDir, `${codeRepairDomain}.critic.yaml`),
    reward: path.join(outDir, `${codeRepairDomain}-reward.mjs`),
  };
  try {
    await mkdir(outDir, { recursive: true });
    await rm(data, { recursive: true, force: true });
    for (const folder of Object.values(quixbugsLayout)) {
      await cp(path.join(dir, folder), path.join(data, folder), { recursive: true });
    }
    for (const file of ["LICENSE", "legal_notes.txt"]) {
      await cp(path.join(dir, file), path.join(data, file)).catch(() => undefined);
    }
    await writeAtomically(files.train, jsonl(train));
    await writeAtomically(files.val, jsonl(val));
    await writeAtomically(files.test, jsonl(test));
    await writeAtomically(
      files.config,
      `# QuixBugs code repair (${codeRepairDomain}): the actor's prompt and the MCP server of its workspace.\n` +
        `# Use it as the actor settings file: --actor-config ${files.config} (or TFGRPO_ACTOR_CONFIG).\n` +
        stringify(repairDomainSettings(options.serverCommand ?? thisCliServing(codeRepairDomain, data)), {
          lineWidth: 0,
        }),
    );
    await writeAtomically(files.reward, repairRewardModule(import.meta.resolve("@tfgrpo/code-repair")));
    await writeAtomically(
      files.criticConfig,
      "# QuixBugs code repair: the critic's reward for the domain (TFGRPO_CRITIC_CONFIG); paths from this folder.\n" +
        stringify({ rewards: { [codeRepairDomain]: path.basename(files.reward) } }),
    );
  } catch (error) {
    throw new TfgrpoError("storage_error", `cannot write into ${outDir}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  output.stdout.write(
    `imported QuixBugs: ${train.length} training, ${val.length} validation and ${test.length} test programs into ` +
      `${outDir} (the programs and their tests under quixbugs/, the actor settings ${path.basename(files.config)}, ` +
      `the critic settings ${path.basename(files.criticConfig)} with the reward ${path.basename(files.reward)})\n`,
  );
  output.stdout.write(nextCommands(codeRepairDomain, files, outDir));
  return { train, val, test, files };
}
