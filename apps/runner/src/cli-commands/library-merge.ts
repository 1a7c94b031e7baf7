import { Command } from "commander";
import { checkedOptions } from "../cli-options/checked-options.js";
import { databaseOption } from "../cli-options/database-option.js";
import { simOption } from "../cli-options/sim-option.js";

/**
 * Adds `merge` to the `library` command (declared in cli-commands/library.ts); creates `library` if it is not there,
 * so the order of registration in cli.ts only needs this line after registerLibraryCommand.
 */
export function registerLibraryMergeCommand(program: Command): void {
  let library = program.commands.find((command) => command.name() === "library");
  if (!library) {
    library = new Command("library").description("Inspect and manage the versioned experience libraries");
    program.addCommand(library);
  }
  library
    .command("merge")
    .description(
      "Merge another library (a domain, or a library file) into this one through consolidation and the conflict check",
    )
    .requiredOption(
      "--from <domain|file>",
      "the library to import: a domain in the database, or a .json/.md file",
    )
    .requiredOption("--into <domain>", "the library that receives the entries (created if it does not exist)")
    .addOption(databaseOption("database file or sqlite:// URL (default: $TFGRPO_DB, else .tfgrpo/tfgrpo.db)"))
    .option("--config <file>", "models config (models.yaml) for the curator (and embedder) roles")
    .addOption(simOption())
    .option("--no-commit", "leave the merged version proposed, for a validation gate")
    .option("--run-id <id>", "run id recorded on the version")
    // Checked against libraryMergeCommandOptionsSchema (commands/library-merge-command-options.ts) by a test.
    .action(async (raw: unknown) => {
      const options = await checkedOptions(
        "library merge",
        async () =>
          (await import("../commands/library-merge-command-options.js")).libraryMergeCommandOptionsSchema,
        raw,
      );
      const { libraryMerge } = await import("../commands/library-merge.js");
      await libraryMerge(options);
    });
}
