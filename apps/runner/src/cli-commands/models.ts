import type { Command } from "commander";
import { actorModeOption } from "../cli-options/actor-mode-option.js";
import { checkedOptions } from "../cli-options/checked-options.js";
import { positiveInteger } from "../cli-options/number-arguments.js";

export function registerModelsCommand(program: Command): void {
  const models = program.command("models").description("Check the model endpoints of a models config");
  models
    .command("check")
    .description(
      "one tiny call per capability and role (chat, tool calls, structured output in each mode, seed, embeddings, cached tokens); exits non-zero when a role cannot do what it is used for",
    )
    .requiredOption("--config <file>", "models config (models.yaml)")
    .option("--timeout-ms <ms>", "deadline of each call (no retries)", positiveInteger, 20_000)
    .addOption(actorModeOption("the actor's mode in your runs: tools (needs tool calls) or direct"))
    .option("--json", "print the report as JSON")
    // Checked against modelsCheckCommandOptionsSchema (commands/models-check-command-options.ts) by a test.
    .action(async (raw: unknown) => {
      const options = await checkedOptions(
        "models check",
        async () =>
          (await import("../commands/models-check-command-options.js")).modelsCheckCommandOptionsSchema,
        raw,
      );
      const { modelsCheck } = await import("../commands/models.js");
      const report = await modelsCheck(options);
      if (!report.ok) process.exitCode = 1;
    });
}
