import { type Command, Option } from "commander";
import { checkDomainOption } from "../cli-options/check-domain-option.js";
import { checkedOptions } from "../cli-options/checked-options.js";
import { databaseOption } from "../cli-options/database-option.js";
import { integer, positiveInteger, temperature } from "../cli-options/number-arguments.js";
import { simOption } from "../cli-options/sim-option.js";

export function registerSolveCommand(program: Command): void {
  program
    .command("solve")
    .description("Run one rollout of a question with a library version and print the trajectory")
    .argument("<question...>", "the question (quote it)")
    .option(
      "--domain <domain>",
      "task domain: picks the tools and the role prompt (default: the library's, else math)",
    )
    .option("--library <ref>", "library version to inject: math@head, math@v3 or none", "none")
    .option("--config <file>", "models config (required without --sim; default: $TFGRPO_CONFIG)")
    .addOption(
      databaseOption("database to read the library from (default: $TFGRPO_DB, else .tfgrpo/tfgrpo.db)"),
    )
    .addOption(simOption("start the SIMULATED world (model server and web corpus) in this process"))
    .option("--sim-seed <n>", "seed of the simulated world", positiveInteger)
    .addOption(new Option("--mode <mode>", "tools, or direct (no tools)").choices(["tools", "direct"]))
    .option("--temperature <t>", "sampling temperature (default: the actor's)", temperature)
    .option("--seed <n>", "sampling seed", integer)
    .option("--max-steps <n>", "model calls at most", positiveInteger)
    .option("--max-tool-calls <n>", "tool calls at most", positiveInteger)
    .option("--timeout-ms <n>", "wall-clock limit of the rollout", positiveInteger)
    .option(
      "--actor-config <file>",
      "actor settings (actor: limits/retrieval, tools: search...); default $TFGRPO_ACTOR_CONFIG",
    )
    .option("--nats <url>", "send the rollout to actor workers (tfgrpo serve --role actor) instead")
    .option("--json", "print the trajectory as JSON")
    .option("--show-prompt", "print the whole system prompt")
    .hook("preAction", checkDomainOption)
    // Checked against solveCommandOptionsSchema (commands/solve-command-options.ts), key for key, by a test.
    .action(async (question: string[], raw: unknown) => {
      const options = await checkedOptions(
        "solve",
        async () => (await import("../commands/solve-command-options.js")).solveCommandOptionsSchema,
        raw,
      );
      const { solve } = await import("../commands/solve.js");
      await solve({ ...options, question: question.join(" ") });
    });
}
