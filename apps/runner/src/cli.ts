#!/usr/bin/env node
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { TfgrpoError } from "@tfgrpo/protocol";
import { Command } from "commander";

/** Where an unexpected error's stack goes, so the terminal gets one line and a bug report gets everything. */
function writeErrorLog(error: unknown): string | null {
  try {
    const directory = process.env.TFGRPO_LOG_DIR ?? path.join(os.tmpdir(), "tfgrpo-logs");
    mkdirSync(directory, { recursive: true });
    const file = path.join(
      directory,
      `error-${new Date().toISOString().replace(/[:.]/g, "-")}-${process.pid}.log`,
    );
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    // A database URL's password stays out of the log.
    const command = process.argv
      .slice(2)
      .join(" ")
      .replace(/\/\/([^:/@\s]*):[^@\s]*@/g, "//$1:***@");
    writeFileSync(file, `tfgrpo ${command}\n\n${detail}\n`);
    return file;
  } catch {
    return null;
  }
}

type Register = (program: Command) => void;

/**
 * Each command's module is imported only when that command runs (or for the full --help): the roles' dependencies
 * (LangChain, sandbox, NATS...) make importing everything cost seconds at every start.
 */
const commands: Record<string, () => Promise<Register[]>> = {
  demo: async () => [(await import("./commands/demo.js")).registerDemoCommand],
  ablate: async () => [(await import("./commands/ablate.js")).registerAblateCommand],
  learn: async () => [(await import("./commands/learn.js")).registerLearnCommand],
  mcp: async () => [(await import("./commands/mcp.js")).registerMcpCommand],
  models: async () => [(await import("./commands/models.js")).registerModelsCommand],
  online: async () => [
    (await import("./commands/online.js")).registerOnlineCommand,
    (await import("./commands/online-clients.js")).registerOnlineClientsCommand,
  ],
  eval: async () => [(await import("./commands/eval.js")).registerEvalCommand],
  report: async () => [(await import("./commands/report.js")).registerReportCommand],
  data: async () => [(await import("./commands/data.js")).registerDataCommand],
  db: async () => [(await import("./commands/db.js")).registerDbCommand],
  library: async () => [
    (await import("./commands/library.js")).registerLibraryCommand,
    (await import("./commands/library-merge.js")).registerLibraryMergeCommand,
  ],
  reward: async () => [(await import("./commands/reward.js")).registerRewardCommand],
  tool: async () => [(await import("./commands/tool.js")).registerToolCommand],
  serve: async () => [(await import("./commands/serve.js")).registerServeCommand],
  solve: async () => [(await import("./commands/solve.js")).registerSolveCommand],
  sim: async () => [(await import("./commands/sim.js")).registerSimCommand],
  studio: async () => [(await import("./commands/studio.js")).registerStudioCommand],
  trace: async () => [(await import("./commands/trace.js")).registerTraceCommand],
};

const program = new Command()
  .name("tfgrpo")
  .description("Training-Free GRPO: learn an experience library for a frozen LLM agent, without training it.")
  .showHelpAfterError("(tfgrpo <command> --help shows the options)")
  .configureHelp({ sortSubcommands: true });

const requested = process.argv.slice(2).find((argument) => !argument.startsWith("-"));
const names = requested !== undefined && requested in commands ? [requested] : Object.keys(commands);
for (const name of names) for (const register of await commands[name]!()) register(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // Known errors are shown as one clear message; anything else is one line too, its stack kept in a log file.
  if (TfgrpoError.isInstance(error)) {
    process.stderr.write(`tfgrpo: ${error.message}\n`);
  } else {
    const message = (error instanceof Error ? error.message : String(error)).split("\n")[0];
    const log = writeErrorLog(error);
    process.stderr.write(`tfgrpo: unexpected error: ${message}${log ? ` (details in ${log})` : ""}\n`);
  }
  process.exitCode = 1;
}
