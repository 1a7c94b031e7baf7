import { type Command, InvalidArgumentError } from "commander";
import { defaultRateLimit } from "../cli-commands/help-defaults.js";
import type { ClientGateCliOptions } from "../commands/client-gate-command-options.js";
import { positiveInteger } from "./number-arguments.js";

/** The options of a server that agents call (`tfgrpo mcp --http`, `serve --role library`). */
export type { ClientGateCliOptions };

const nonNegativeNumber = (value: string): number => {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0)
    throw new InvalidArgumentError("must be a number >= 0 (0: off)");
  return parsed;
};

/** Adds --client-tokens, --rate-limit and --rate-burst to a command. */
export function addClientGateOptions(command: Command): Command {
  return command
    .option(
      "--client-tokens <file>",
      "client tokens, one name:token per line: each call must carry a known one, and is stored with its client's " +
        "name (default: $TFGRPO_CLIENT_TOKENS as name:token,name:token; none: clients are anonymous)",
    )
    .option(
      "--rate-limit <per-second>",
      `requests per second per client (its token's name, else its session or connection); beyond it calls are ` +
        `refused with the limit named (default ${defaultRateLimit.perSecond}; 0: off)`,
      nonNegativeNumber,
    )
    .option(
      "--rate-burst <n>",
      `requests a client may send at once after a quiet spell (default ${defaultRateLimit.burst})`,
      positiveInteger,
    );
}
