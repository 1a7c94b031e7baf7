import type { Command } from "commander";
import { checkedOptions } from "../cli-options/checked-options.js";
import { addClientGateOptions } from "../cli-options/client-gate-declarations.js";
import { positiveInteger } from "../cli-options/number-arguments.js";

export function registerServeCommand(program: Command): void {
  const command = program
    .command("serve")
    .description("Serve one role (actor, critic, curator, library) on a NATS Bus until stopped (Ctrl-C)")
    .requiredOption("--role <name>", "the role to serve: actor, critic, curator, library")
    .option("--nats <url>", "NATS server URL(s), comma-separated (default: $TFGRPO_NATS_URL)")
    .option("--concurrency <n>", "calls or jobs per subject at once (default: the role's)", positiveInteger)
    .option("--config <file>", "models config (models.yaml), required (default: $TFGRPO_CONFIG)")
    .option("--db <path>", "workspace database")
    .option(
      "--agent <file>",
      "with --role actor: the team's agent module runs the rollouts (or `agent:` in $TFGRPO_ACTOR_CONFIG)",
    )
    .option("--module <file...>", "import modules that register more roles (registerRole) first");
  // The library role's: who may call it and how often (other roles ignore them).
  // Checked against serveCommandOptionsSchema (commands/serve-command-options.ts), key for key, by a test.
  addClientGateOptions(command).action(async (raw: unknown) => {
    const options = await checkedOptions(
      "serve",
      async () => (await import("../commands/serve-command-options.js")).serveCommandOptionsSchema,
      raw,
    );
    const { serve } = await import("../commands/serve.js");
    await serve(options);
  });
}
