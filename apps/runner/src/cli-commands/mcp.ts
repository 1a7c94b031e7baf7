import type { Command } from "commander";
import { checkDomainOption } from "../cli-options/check-domain-option.js";
import { checkedOptions } from "../cli-options/checked-options.js";
import { addClientGateOptions } from "../cli-options/client-gate-declarations.js";
import { databaseOption } from "../cli-options/database-option.js";
import { nonNegativeInteger, positiveInteger, positiveNumber } from "../cli-options/number-arguments.js";

export function registerMcpCommand(program: Command): void {
  const command = program
    .command("mcp")
    .description(
      "Serve a domain's experience library as an MCP server (stdio, or Streamable HTTP with --http)",
    )
    .requiredOption(
      "--domain <name>",
      "the library domain (tools default to it; resources list its versions)",
    )
    .option(
      "--http <port>",
      "serve Streamable HTTP on this port (0: any free port) instead of stdio",
      nonNegativeInteger,
    )
    .option(
      "--host <address>",
      "address to listen on with --http (default 127.0.0.1; anything but loopback requires $TFGRPO_MCP_TOKEN)",
    )
    .addOption(databaseOption())
    .option(
      "--config <file>",
      "models config whose embedder role gives similarity (default: $TFGRPO_CONFIG; optional)",
    )
    .option("--max-sessions <n>", "with --http: open MCP sessions at most (default 100)", positiveInteger)
    .option(
      "--session-idle <seconds>",
      "with --http: close a session idle this long (default 1800)",
      positiveNumber,
    )
    .hook("preAction", checkDomainOption);
  // Who may call it and how often.
  // Checked against mcpCommandOptionsSchema (commands/mcp-command-options.ts), key for key, by a test.
  addClientGateOptions(command).action(async (raw: unknown) => {
    const options = await checkedOptions(
      "mcp",
      async () => (await import("../commands/mcp-command-options.js")).mcpCommandOptionsSchema,
      raw,
    );
    const { mcp } = await import("../commands/mcp.js");
    await mcp(options);
  });
}
