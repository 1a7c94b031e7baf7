import type { Command } from "commander";
import { actorModeOption } from "../cli-options/actor-mode-option.js";
import { agentPriceOption } from "../cli-options/agent-price-option.js";
import { checkDomainOption } from "../cli-options/check-domain-option.js";
import { checkedOptions } from "../cli-options/checked-options.js";
import { databaseOption } from "../cli-options/database-option.js";
import { nonNegativeInteger, positiveInteger, temperature } from "../cli-options/number-arguments.js";
import { simOption } from "../cli-options/sim-option.js";

export function registerEvalCommand(program: Command): void {
  program
    .command("eval")
    .description(
      "Evaluate libraries side by side (Mean@k, Pass@k with 95% CIs, tool calls, turns, adherence, cost)",
    )
    .requiredOption("--domain <domain>", "domain of the tasks")
    .option(
      "--library <ref>",
      "none, D@head or D@vN; repeat to compare",
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .requiredOption("--data <file>", "evaluation tasks (JSONL, with answers)")
    .option("--k <n>", "samples per task (Mean@k, Pass@k)", positiveInteger, 4)
    .option("--config <file>", "models config (models.yaml)")
    .option("--nats <url>", "dispatch rollouts over NATS to actor workers")
    .option("--concurrency <n>", "rollouts in flight", positiveInteger, 16)
    .option("--seed <n>", "sampling seed (the same for every library)", nonNegativeInteger, 1)
    .option("--temperature <t>", "evaluation temperature", temperature, 0.3)
    .addOption(databaseOption())
    .addOption(actorModeOption())
    .option(
      "--settings <path>",
      "the actor and critic settings of the domain: the folder `data import --preset` wrote (DOMAIN.yaml, DOMAIN.critic.yaml) or one settings file; without it $TFGRPO_ACTOR_CONFIG / $TFGRPO_CRITIC_CONFIG, else those files beside the tasks",
    )
    .option("--local-roles <roles>", "roles this process hosts", "actor,critic,curator")
    .option(
      "--agent <file>",
      "the team's agent module (a createAgent agent, an AI SDK agent or a function): it runs the rollouts instead of tfgrpo's actor",
    )
    .addOption(agentPriceOption())
    .addOption(simOption())
    .option("--run-id <id>", "id of the evaluation run")
    .option(
      "--group-by <field>",
      "also report Mean@k and Δ per value of this task field (default: familySplit when the tasks carry it; none: off)",
    )
    .option(
      "--controls",
      "add placebo libraries beside each library other than none: keyword stubs, shuffled lessons, another domain's lessons",
    )
    .option(
      "--control-domain <domain>",
      "the other-domain control: that domain's head in the database (default: the vendored web library, math's for web)",
    )
    .option("--json", "print the evaluation as JSON")
    .option(
      "--no-trace",
      "do not trace the evaluation (default: spans to traces/<run>.jsonl beside the database)",
    )
    .option(
      "--actor-model <name>",
      "also evaluate with this actor model (a models: entry, or a model id on the actor's provider), side by side",
    )
    .option("--dry-run", "print the expected model calls, tokens and USD (a range), call no model")
    .option("--record <dir>", "write every model request and response (keys redacted) into DIR, a cassette")
    .option(
      "--replay <dir>",
      "answer every model call from a cassette recorded with --record (no model endpoint)",
    )
    .hook("preAction", checkDomainOption)
    // Checked against evalCommandOptionsSchema (commands/eval-command-options.ts), key for key, by a test.
    .action(async (raw: unknown) => {
      const options = await checkedOptions(
        "eval",
        async () => (await import("../commands/eval-command-options.js")).evalCommandOptionsSchema,
        raw,
      );
      const { evaluate } = await import("../commands/eval.js");
      await evaluate(options);
    });
}
