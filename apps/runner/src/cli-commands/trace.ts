import type { Command } from "commander";
import { databaseOption } from "../cli-options/database-option.js";
import { positiveInteger } from "../cli-options/number-arguments.js";
import type { TraceCommandOptions } from "../commands/trace.js";

export function registerTraceCommand(program: Command): void {
  program
    .command("trace <run>")
    .description(
      "Print a run's spans as an indented tree with durations, model calls, tokens and costs (from its local trace file)",
    )
    .addOption(databaseOption())
    .option("--file <jsonl>", "the trace file (default: traces/<run>.jsonl beside the database)")
    .option("--step <n>", "only this learning step", positiveInteger)
    .option("--rollout <id>", "only this rollout (<group>/<attempt>, or a trajectory id)")
    .action(async (run: string, options: TraceCommandOptions) => {
      const { trace } = await import("../commands/trace.js");
      await trace(run, options);
    });
}
