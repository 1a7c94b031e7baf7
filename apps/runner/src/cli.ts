#!/usr/bin/env node
import { TfgrpoError } from "@tfgrpo/protocol";
import { Command } from "commander";
import { registerDemoCommand } from "./commands/demo.js";
import { registerEvalCommand } from "./commands/eval.js";
import { registerLearnCommand } from "./commands/learn.js";
import { registerLibraryCommand } from "./commands/library.js";
import { registerLibraryMergeCommand } from "./commands/library-merge.js";
import { registerReportCommand } from "./commands/report.js";
import { registerRewardCommand } from "./commands/reward.js";
import { registerServeCommand } from "./commands/serve.js";
import { registerSimCommand } from "./commands/sim.js";
import { registerSolveCommand } from "./commands/solve.js";
import { registerToolCommand } from "./commands/tool.js";

const program = new Command()
  .name("tfgrpo")
  .description("Training-Free GRPO: learn an experience library for a frozen LLM agent, without training it.")
  .showHelpAfterError()
  .configureHelp({ sortSubcommands: true });

registerDemoCommand(program);
registerLearnCommand(program);
registerEvalCommand(program);
registerReportCommand(program);
registerLibraryCommand(program);
registerLibraryMergeCommand(program);
registerRewardCommand(program);
registerToolCommand(program);
registerServeCommand(program);
registerSolveCommand(program);
registerSimCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // Known errors are shown as one clear message; anything else keeps its stack for a bug report.
  if (TfgrpoError.isInstance(error)) {
    process.stderr.write(`tfgrpo: ${error.message}\n`);
  } else {
    process.stderr.write(
      `tfgrpo: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exitCode = 1;
}
