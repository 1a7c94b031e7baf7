import type { Command } from "commander";
import { addClientGateOptions } from "../cli-options/client-gate-declarations.js";
import { positiveInteger } from "../cli-options/number-arguments.js";
import type { ServeOptions } from "../commands/serve.js";

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
  addClientGateOptions(command).action(async (options: ServeOptions) => {
    const { serve } = await import("../commands/serve.js");
    await serve(options);
  });
}
