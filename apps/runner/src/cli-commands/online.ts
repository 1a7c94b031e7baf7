import { type Command, Option } from "commander";
import { checkDomainOption } from "../cli-options/check-domain-option.js";
import { checkedOptions } from "../cli-options/checked-options.js";
import { databaseOption } from "../cli-options/database-option.js";
import {
  nonNegativeInteger,
  positiveInteger,
  positiveNumber,
  probability,
} from "../cli-options/number-arguments.js";
import { simOption } from "../cli-options/sim-option.js";

export function registerOnlineCommand(program: Command): void {
  const online = program
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
    .option(
      "--learner",
      "be the domain's one learner: learn from every outcome in --db (recorded by any server) while holding the domain's lease",
    )
    .option(
      "--lease-ttl-ms <ms>",
      "with --learner: a lease not renewed this long is taken over (default 15000)",
      positiveInteger,
    )
    .option(
      "--renew-every-ms <ms>",
      "with --learner: how often the holder renews its lease (default 5000)",
      positiveInteger,
    )
    .option(
      "--poll-ms <ms>",
      "with --learner: how often the store is read for new outcomes (default 500)",
      positiveInteger,
    )
    .option(
      "--metrics <file>",
      "with --learner: write its OpenTelemetry metrics (outcomes, window success, canary counts, reflections, decisions) to this JSON-lines file",
    )
    .option(
      "--settle-ms <ms>",
      "with --learner: read only outcomes reported at least this long ago (default 1000)",
      nonNegativeInteger,
    )
    .addOption(databaseOption())
    .addOption(simOption())
    .addOption(new Option("--json", "print the summary as JSON"))
    .hook("preAction", checkDomainOption)
    // Each command's options are checked against its schema (commands/online-command-options.ts) by a test.
    .action(async (raw: unknown) => {
      const options = await checkedOptions(
        "online",
        async () => (await import("../commands/online-command-options.js")).onlineCommandOptionsSchema,
        raw,
      );
      const { online } = await import("../commands/online.js");
      await online(options, {
        stdout: (text) => process.stdout.write(text),
        stderr: (text) => process.stderr.write(text),
      });
    });
  registerOnlineControls(online);
  registerOnlineClients(online);
}

const print = { stdout: (text: string) => process.stdout.write(text) };

/** The operator's subcommands: status, pause, resume (their implementation loads when one runs). */
function registerOnlineControls(online: Command): void {
  online
    .command("status")
    .description(
      "The domain's online learner: lease holder (host, pid), canary and its counts, window, cursor, last decisions",
    )
    .option("--domain <domain>", "the library domain (required)")
    .addOption(databaseOption())
    .addOption(new Option("--json", "print the status as JSON"))
    .hook("preAction", checkDomainOption)
    .action(async (options: Record<string, unknown>, command: Command) => {
      const { controlOptions, onlineStatus } = await import("../online/online-controls.js");
      await onlineStatus(controlOptions(options, command), print);
    });
  for (const [name, paused] of [
    ["pause", true],
    ["resume", false],
  ] as const) {
    online
      .command(name)
      .description(
        paused
          ? "Pause online learning of a domain (stored; serving goes on, the learner stops learning)"
          : "Resume online learning of a domain",
      )
      .option("--domain <domain>", "the library domain (required)")
      .addOption(databaseOption())
      .addOption(new Option("--json", "print the result as JSON"))
      .hook("preAction", checkDomainOption)
      .action(async (options: Record<string, unknown>, command: Command) => {
        const { controlOptions, onlinePause } = await import("../online/online-controls.js");
        await onlinePause(paused, controlOptions(options, command), print);
      });
  }
}

/**
 * `online clients`. The parent has options of the same names (--domain, --db, --json); commander may hand them to
 * it, so the action reads both.
 */
function registerOnlineClients(online: Command): void {
  online
    .command("clients")
    .description(
      "List the clients of a domain (outcomes, success rates, exclusions), or exclude / include one in learning",
    )
    .option("--domain <domain>", "the library domain")
    .addOption(databaseOption())
    .option("--exclude <client>", "exclude this client's outcomes from learning (they stay stored)")
    .option("--include <client>", "include a client excluded before")
    .option("--reason <text>", "with --exclude: why, stored and listed")
    .addOption(new Option("--json", "print the list as JSON"))
    .hook("preAction", checkDomainOption)
    .action(async (raw: Record<string, unknown>, command: Command) => {
      const [{ onlineClients }, { onlineClientsDeclaredSchema }, { subcommandOptions }] = await Promise.all([
        import("../commands/online-clients.js"),
        import("../commands/online-command-options.js"),
        import("../online/online-controls.js"),
      ]);
      const options = subcommandOptions(onlineClientsDeclaredSchema, raw, command);
      await onlineClients(options, {
        stdout: (text) => process.stdout.write(text),
        stderr: (text) => process.stderr.write(text),
      });
    });
}
