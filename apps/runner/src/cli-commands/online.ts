import { type Command, Option } from "commander";
import { checkDomainOption } from "../cli-options/check-domain-option.js";
import { databaseOption } from "../cli-options/database-option.js";
import {
  nonNegativeInteger,
  positiveInteger,
  positiveNumber,
  probability,
} from "../cli-options/number-arguments.js";
import { simOption } from "../cli-options/sim-option.js";
import type { OnlineCommandOptions } from "../commands/online.js";

export function registerOnlineCommand(program: Command): void {
  program
    .command("online")
    .description(
      "Serve a library and learn while serving: reflection on a trigger, canary rollout behind the gate, automatic rollback",
    )
    .option("--config <file>", "models config (models.yaml)")
    .option("--domain <domain>", "domain of the tasks and of the library, e.g. math")
    .option("--tasks <file>", "a stream of tasks (JSONL with answers) served by a ReAct agent, in order")
    .option("--nats <url>", "serve the library on NATS and learn from the outcomes its clients report")
    .option("--online <file>", "online learning settings (YAML or JSON: trigger, groups, critic, rollout)")
    .option("--reflect-every <n>", "reflect every n outcomes (trigger.batchSize)", positiveInteger)
    .option(
      "--drop-below <rate>",
      "reflect at once when window success falls below this (trigger.dropBelow)",
      probability,
    )
    .option("--canary-share <share>", "share of traffic a new version serves as a canary", probability)
    .option("--max-outcomes <n>", "with --nats: stop after this many outcomes", positiveInteger)
    .option("--concurrency <n>", "tasks served at once (with --tasks)", positiveInteger, 1)
    .option("--budget-usd <usd>", "stop cleanly once the session has spent this much", positiveNumber)
    .option(
      "--seed <n>",
      "seed of the canary draw, the agent's sampling and the sim world",
      nonNegativeInteger,
      1,
    )
    .option("--run-id <id>", "id of the session's run record (default: generated)")
    .option("--no-tools", "with --tasks: the serving agent answers without tools")
    .addOption(databaseOption())
    .addOption(simOption())
    .addOption(new Option("--json", "print the summary as JSON"))
    .hook("preAction", checkDomainOption)
    .action(async (options: OnlineCommandOptions) => {
      const { online } = await import("../commands/online.js");
      await online(options, {
        stdout: (text) => process.stdout.write(text),
        stderr: (text) => process.stderr.write(text),
      });
    });
}
