import type { Command } from "commander";
import { checkedOptions } from "../cli-options/checked-options.js";
import { databaseOption } from "../cli-options/database-option.js";
import { positiveInteger } from "../cli-options/number-arguments.js";

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
    // Checked against traceCommandOptionsSchema (commands/trace-command-options.ts), key for key, by a test.
    .action(async (run: string, raw: unknown) => {
      const options = await checkedOptions(
        "trace",
        async () => (await import("../commands/trace-command-options.js")).traceCommandOptionsSchema,
        raw,
      );
      const { trace } = await import("../commands/trace.js");
      await trace(run, options);
    });
}
