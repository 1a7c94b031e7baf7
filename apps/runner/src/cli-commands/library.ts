import { type Command, Option } from "commander";
import { checkedOptions } from "../cli-options/checked-options.js";
import { experienceStatuses } from "./help-defaults.js";

export function registerLibraryCommand(program: Command): void {
  const library = program
    .command("library")
    .description(
      "Inspect and manage the versioned experience libraries (list, show, diff, rollback, export, import)",
    );
  const dbOption = () =>
    new Option("--db <path>", "database file or sqlite:// URL (default: $TFGRPO_DB, else .tfgrpo/tfgrpo.db)");

  // Each subcommand is checked against its schema (commands/library-command-options.ts), key for key, by a test.
  library
    .command("list")
    .description("List libraries, or the versions of one library with --domain")
    .addOption(dbOption())
    .option("--domain <domain>", "list the versions of this library")
    .action(async (raw: unknown) => {
      const options = await checkedOptions(
        "library list",
        async () => (await import("../commands/library-command-options.js")).libraryListCommandOptionsSchema,
        raw,
      );
      const { libraryList } = await import("../commands/library.js");
      await libraryList(options);
    });

  library
    .command("show")
    .description(
      "Show the entries of the head (or --version N) as a table, each with its contrast (reward shown minus withheld) and interval; --entry G3 for one entry's contrast by library version and its lifecycle moves",
    )
    .addOption(dbOption())
    .requiredOption("--domain <domain>", "library domain, e.g. math")
    .option("--version <version>", "a version number instead of the head")
    .option("--entry <id>", "one entry: its contrast by library version and its lifecycle moves, e.g. G3")
    .option("--all", "include archived entries")
    .option("--wide", "do not shorten texts")
    .option("--json", "print JSON (the entries, or the one entry, with their contrasts as numbers)")
    .option(
      "--costs",
      "what each entry cost to learn (its share of the critic and curator calls of the steps that wrote it)",
    )
    .action(async (raw: unknown) => {
      const options = await checkedOptions(
        "library show",
        async () => (await import("../commands/library-command-options.js")).libraryShowCommandOptionsSchema,
        raw,
      );
      const { libraryShow } = await import("../commands/library.js");
      await libraryShow(options);
    });

  library
    .command("diff")
    .description("Show what changed between two versions (numbers, head, or none for the empty library)")
    .argument("<from>", "older version")
    .argument("<to>", "newer version")
    .addOption(dbOption())
    .requiredOption("--domain <domain>", "library domain, e.g. math")
    .action(async (from: string, to: string, raw: unknown) => {
      const options = await checkedOptions(
        "library diff",
        async () =>
          (await import("../commands/library-command-options.js")).libraryDomainCommandOptionsSchema,
        raw,
      );
      const { libraryDiff } = await import("../commands/library.js");
      await libraryDiff(from, to, options);
    });

  library
    .command("rollback")
    .description("Commit a new version whose entries equal those of an older version (ids are kept)")
    .argument("<version>", "the version to return to")
    .addOption(dbOption())
    .requiredOption("--domain <domain>", "library domain, e.g. math")
    .action(async (version: string, raw: unknown) => {
      const options = await checkedOptions(
        "library rollback",
        async () =>
          (await import("../commands/library-command-options.js")).libraryDomainCommandOptionsSchema,
        raw,
      );
      const { libraryRollback } = await import("../commands/library.js");
      await libraryRollback(version, options);
    });

  library
    .command("export")
    .description('Write a library version as JSON (full), plain JSON ({"G0": "text"}) or Markdown')
    .addOption(dbOption())
    .requiredOption("--domain <domain>", "library domain, e.g. math")
    .addOption(
      new Option("--format <format>", "output format").choices(["json", "plain", "markdown"]).default("json"),
    )
    .option("--version <version>", "a version number instead of the head")
    .option("--out <file>", "write to this file instead of stdout")
    .action(async (raw: unknown) => {
      const options = await checkedOptions(
        "library export",
        async () =>
          (await import("../commands/library-command-options.js")).libraryExportCommandOptionsSchema,
        raw,
      );
      const { libraryExport } = await import("../commands/library.js");
      await libraryExport(options);
    });

  library
    .command("import")
    .description(
      "Import a library file as a new committed version (format detected from the name and content)",
    )
    .argument("<file>", "a .json (full or plain) or .md file")
    .addOption(dbOption())
    .option("--domain <domain>", "target library (default: the file's declared domain, else its base name)")
    .addOption(
      new Option("--format <format>", "input format")
        .choices(["auto", "json", "plain", "markdown"])
        .default("auto"),
    )
    .addOption(
      new Option(
        "--status <status>",
        "status of entries the file gives none (plain JSON, hand-written Markdown)",
      )
        .choices(experienceStatuses)
        .default("active"),
    )
    .option(
      "--replace",
      "exact restore: commit a version equal to the file (ids, statuses, stats, history) instead of adding to the head",
    )
    .action(async (file: string, raw: unknown) => {
      const options = await checkedOptions(
        "library import",
        async () =>
          (await import("../commands/library-command-options.js")).libraryImportCommandOptionsSchema,
        raw,
      );
      const { libraryImport } = await import("../commands/library.js");
      await libraryImport(file, options);
    });
}
