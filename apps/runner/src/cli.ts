#!/usr/bin/env node
import { TfgrpoError } from "@tfgrpo/protocol";
import { Command } from "commander";

type Register = (program: Command) => void;

/**
 * Each command's module is imported only when that command runs (or for the full --help): the roles' dependencies
 * (LangChain, sandbox, NATS...) make importing everything cost seconds at every start.
 */
const commands: Record<string, () => Promise<Register[]>> = {
  demo: async () => [(await import("./commands/demo.js")).registerDemoCommand],
  ablate: async () => [(await import("./commands/ablate.js")).registerAblateCommand],
  learn: async () => [(await import("./commands/learn.js")).registerLearnCommand],
  eval: async () => [(await import("./commands/eval.js")).registerEvalCommand],
  report: async () => [(await import("./commands/report.js")).registerReportCommand],
  library: async () => [
    (await import("./commands/library.js")).registerLibraryCommand,
    (await import("./commands/library-merge.js")).registerLibraryMergeCommand,
  ],
  reward: async () => [(await import("./commands/reward.js")).registerRewardCommand],
  tool: async () => [(await import("./commands/tool.js")).registerToolCommand],
  serve: async () => [(await import("./commands/serve.js")).registerServeCommand],
  solve: async () => [(await import("./commands/solve.js")).registerSolveCommand],
  sim: async () => [(await import("./commands/sim.js")).registerSimCommand],
};

const program = new Command()
  .name("tfgrpo")
  .description("Training-Free GRPO: learn an experience library for a frozen LLM agent, without training it.")
  .showHelpAfterError()
  .configureHelp({ sortSubcommands: true });

const requested = process.argv.slice(2).find((argument) => !argument.startsWith("-"));
const names = requested !== undefined && requested in commands ? [requested] : Object.keys(commands);
for (const name of names) for (const register of await commands[name]!()) register(program);

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
