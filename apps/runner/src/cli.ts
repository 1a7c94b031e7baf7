#!/usr/bin/env node
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Command } from "commander";
import { registerAblateCommand } from "./cli-commands/ablate.js";
import { registerDataCommand } from "./cli-commands/data.js";
import { registerDbCommand } from "./cli-commands/db.js";
import { registerDemoCommand } from "./cli-commands/demo.js";
import { registerDoctorCommand } from "./cli-commands/doctor.js";
import { registerEnvCommand } from "./cli-commands/env.js";
import { registerEvalCommand } from "./cli-commands/eval.js";
import { registerLearnCommand } from "./cli-commands/learn.js";
import { registerLibraryCommand } from "./cli-commands/library.js";
import { registerLibraryMergeCommand } from "./cli-commands/library-merge.js";
import { registerMcpCommand } from "./cli-commands/mcp.js";
import { registerModelsCommand } from "./cli-commands/models.js";
import { registerOnlineCommand } from "./cli-commands/online.js";
import { registerReportCommand } from "./cli-commands/report.js";
import { registerRewardCommand } from "./cli-commands/reward.js";
import { runnerVersion } from "./cli-commands/runner-version.js";
import { registerServeCommand } from "./cli-commands/serve.js";
import { registerSimCommand } from "./cli-commands/sim.js";
import { registerSolveCommand } from "./cli-commands/solve.js";
import { registerStudioCommand } from "./cli-commands/studio.js";
import { registerToolCommand } from "./cli-commands/tool.js";
import { registerTraceCommand } from "./cli-commands/trace.js";

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

/**
 * Every command's declaration (name, options, help) is in cli-commands/<command>.ts and imports commander and light
 * modules only; its action imports the implementation in commands/<command>.ts when it runs:
 * an `.action` that imports the command's module (`await import(...)`) and calls it. So `--help` and a quick
 * command do not load LangChain, the sandbox, NATS, zod... (bench/cli-start.bench.ts; cli-commands/
 * light-declarations.int.test.ts fails when a declaration pulls in more). A parser that needs a heavy module runs when
 * the command runs instead (`--domain`: the checkDomainOption hook), a default shown in the help comes from
 * cli-commands/help-defaults.ts.
 */
const program = new Command()
  .name("tfgrpo")
  .description("Training-Free GRPO: learn an experience library for a frozen LLM agent, without training it.")
  .version(runnerVersion())
  .showHelpAfterError("(tfgrpo <command> --help shows the options)")
  .configureHelp({ sortSubcommands: true });
registerDemoCommand(program);
registerAblateCommand(program);
registerLearnCommand(program);
registerMcpCommand(program);
registerModelsCommand(program);
registerOnlineCommand(program);
registerEvalCommand(program);
registerReportCommand(program);
registerDataCommand(program);
registerEnvCommand(program);
registerDbCommand(program);
registerLibraryCommand(program);
registerLibraryMergeCommand(program);
registerRewardCommand(program);
registerToolCommand(program);
registerServeCommand(program);
registerSolveCommand(program);
registerSimCommand(program);
registerStudioCommand(program);
registerTraceCommand(program);
registerDoctorCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // Known errors are shown as one clear message; anything else is one line too, its stack kept in a log file.
  // Loaded only now: @tfgrpo/protocol costs a start that does not fail.
  const { TfgrpoError } = await import("@tfgrpo/protocol");
  if (TfgrpoError.isInstance(error)) {
    process.stderr.write(`tfgrpo: ${error.message}\n`);
  } else {
    const message = (error instanceof Error ? error.message : String(error)).split("\n")[0];
    const log = writeErrorLog(error);
    process.stderr.write(`tfgrpo: unexpected error: ${message}${log ? ` (details in ${log})` : ""}\n`);
  }
  process.exitCode = 1;
}
