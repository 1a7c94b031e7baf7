import { type Command, Option } from "commander";
import { checkDomainOption } from "../cli-options/check-domain-option.js";
import { checkedOptions } from "../cli-options/checked-options.js";
import { nonNegativeInteger, probability } from "../cli-options/number-arguments.js";
import { presetNames as knownPresets } from "../data-import/dataset-presets.js";

const presetNames = knownPresets.join(", ");

export function registerDataCommand(program: Command): void {
  const data = program.command("data").description("Benchmark data: import into tfgrpo tasks");
  data
    .command("import")
    .description(
      `JSONL, CSV or Parquet into tasks (JSONL): presets ${presetNames}, a field map, answers from \\boxed{}, duplicates dropped across splits, held-out splits by family or time`,
    )
    .argument(
      "<files...>",
      "source files (pooled), or one directory for a directory preset (tau2-retail, quixbugs)",
    )
    .option("--preset <name>", `a known dataset: ${presetNames} (tau2-retail, quixbugs: DIR --out-dir D)`)
    .option("--format <format>", "jsonl, csv or parquet (default: from the file name)")
    .option(
      "--map <fields>",
      "task field = source field, e.g. question=problem,answer=solution (dotted paths)",
    )
    .option("--domain <domain>", "domain of the tasks (default: the preset's)")
    .option("--family <field>", "source field whose value is a task's family (kept on one side of a split)")
    .option("--time <field>", "source field ordering tasks in time (split by time: the latest held out)")
    .option("--val <file>", "a held-out file: the validation split (its questions are dropped from training)")
    .option("--val-share <share>", "hold out this share of the pool for validation", probability)
    .addOption(
      new Option("--split-by <how>", "how to hold out")
        .choices(["family", "time", "random"])
        .default("family"),
    )
    .option("--seed <n>", "seed of a family or random split", nonNegativeInteger, 1)
    .addOption(
      new Option("--extract-boxed <when>", "answers from the last \\boxed{} of a worked solution")
        .choices(["auto", "always", "never"])
        .default("auto"),
    )
    .option("--no-answers", "accept records without an answer (learning without ground truth)")
    .option("--out <file>", "the tasks (JSONL), without a split")
    .option("--out-dir <dir>", "train.jsonl (and val.jsonl with a split) in this directory")
    .hook("preAction", checkDomainOption)
    // Checked against dataImportCommandOptionsSchema (commands/data-import-command-options.ts) by a test.
    .action(async (files: string[], raw: unknown) => {
      const options = await checkedOptions(
        "data import",
        async () =>
          (await import("../commands/data-import-command-options.js")).dataImportCommandOptionsSchema,
        raw,
      );
      const { dataImport } = await import("../commands/data.js");
      await dataImport(files, options);
    });
}
