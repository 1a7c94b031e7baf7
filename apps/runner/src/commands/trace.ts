import type { Command } from "commander";
import { artifactDirectory } from "../cli-options/artifact-directory.js";
import { databaseOption } from "../cli-options/database-option.js";
import { positiveInteger } from "../cli-options/number-arguments.js";
import { readTraceFile } from "../tracing/read-trace-file.js";
import { renderTraceTree } from "../tracing/render-trace-tree.js";
import { traceFileFor } from "../tracing/start-tracing.js";
import { resolveDatabase } from "./library.js";

interface TraceCommandOptions {
  db?: string;
  file?: string;
  step?: number;
  rollout?: string;
}

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
      const file = options.file ?? traceFileFor(artifactDirectory(resolveDatabase(options)), run);
      const spans = await readTraceFile(file);
      process.stdout.write(
        renderTraceTree(spans, {
          ...(options.step === undefined ? {} : { step: options.step }),
          ...(options.rollout === undefined ? {} : { rollout: options.rollout }),
        }),
      );
    });
}
