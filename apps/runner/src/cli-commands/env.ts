import { Argument, type Command, Option } from "commander";
import { checkedOptions } from "../cli-options/checked-options.js";
import { nonNegativeInteger } from "../cli-options/number-arguments.js";

export function registerEnvCommand(program: Command): void {
  const env = program
    .command("env")
    .description("Environments tfgrpo serves itself as MCP servers (one environment per attempt)");
  env
    .command("serve")
    .description(
      "Serve a domain's tools as an MCP server: stdio (spawned per attempt) or Streamable HTTP with --http (one " +
        "environment per MCP session); control tools environment_reset {task} and environment_state {}",
    )
    .addArgument(new Argument("<domain>", "the environment").choices(["tau2-retail", "code-repair"]))
    .requiredOption(
      "--data <dir>",
      "the domain's data (tau2-retail: a directory with db.json; code-repair: a QuixBugs directory)",
    )
    .option(
      "--http <port>",
      "serve Streamable HTTP on this port (0: any free port) instead of stdio",
      nonNegativeInteger,
    )
    .option("--host <address>", "address to listen on with --http (default 127.0.0.1)")
    .addOption(
      new Option("--max-sessions <n>", "with --http: open sessions at most (default 256)").argParser(Number),
    )
    // Checked against envServeCommandOptionsSchema (commands/env-serve-command-options.ts), key for key, by a test.
    .action(async (domain: string, raw: unknown) => {
      const options = await checkedOptions(
        "env serve",
        async () => (await import("../commands/env-serve-command-options.js")).envServeCommandOptionsSchema,
        raw,
      );
      const { envServe } = await import("../commands/env-serve.js");
      await envServe(domain, options);
    });
}
