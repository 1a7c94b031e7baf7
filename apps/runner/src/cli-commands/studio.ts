import type { Command } from "commander";
import { checkedOptions } from "../cli-options/checked-options.js";
import { databaseOption } from "../cli-options/database-option.js";
import { nonNegativeInteger } from "../cli-options/number-arguments.js";
import { defaultStudioPort } from "./help-defaults.js";

/**
 * `tfgrpo studio`: the library studio over the workspace database (browse, diff, review, curate; every change a
 * committed version through the curator). Loopback by default; another host needs TFGRPO_STUDIO_TOKEN.
 */
export function registerStudioCommand(program: Command): void {
  program
    .command("studio")
    .description("Serve the library studio: browse, diff, review and curate libraries in a browser")
    .addOption(databaseOption())
    .option("--port <port>", `port (0 picks a free one)`, nonNegativeInteger, defaultStudioPort)
    .option(
      "--host <host>",
      "address to listen on (anything but loopback requires $TFGRPO_STUDIO_TOKEN)",
      "127.0.0.1",
    )
    .option(
      "--config <file>",
      "models config: the curator model then checks edited lessons against similar ones for conflicts (default: $TFGRPO_CONFIG; without one, the rule scan only)",
    )
    // Checked against studioCommandOptionsSchema (commands/studio-command-options.ts), key for key, by a test.
    .action(async (raw: unknown) => {
      const options = await checkedOptions(
        "studio",
        async () => (await import("../commands/studio-command-options.js")).studioCommandOptionsSchema,
        raw,
      );
      const { studio } = await import("../commands/studio.js");
      await studio(options);
    });
}
