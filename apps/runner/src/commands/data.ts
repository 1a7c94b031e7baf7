import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Task } from "@tfgrpo/protocol";
import { InvalidArgumentError } from "commander";
import type { CommandOutput } from "../cli-options/command-output.js";
import { checkPresetName } from "../data-import/check-preset-name.js";
import { directoryPresets } from "../data-import/dataset-presets.js";
import { type ImportedDataset, importDataset } from "../data-import/import-dataset.js";
import type { DataImportOptions } from "./data-import-command-options.js";

export type { DataImportOptions };

/** `tfgrpo data import FILE...`: tasks written as JSONL (train.jsonl and val.jsonl with a split). */
export async function dataImport(
  files: string[],
  options: DataImportOptions,
  output: CommandOutput = { stderr: process.stderr, stdout: process.stdout },
): Promise<ImportedDataset> {
  if (files.length === 0) throw new InvalidArgumentError("data import needs at least one file");
  if (options.preset !== undefined) checkPresetName(options.preset);
  const directory = options.preset === undefined ? undefined : directoryPresets[options.preset];
  if (directory) {
    if (files.length !== 1 || !options.outDir)
      throw new InvalidArgumentError(
        `--preset ${options.preset} reads one directory: data import DIR --out-dir D`,
      );
    const run = await directory.load();
    const imported = await run(
      {
        dir: files[0]!,
        outDir: options.outDir,
        seed: options.seed,
        ...(options.valShare !== undefined ? { valShare: options.valShare } : {}),
      },
      output,
    );
    return { train: imported.train, val: imported.val, duplicates: 0, extracted: 0, notes: [] };
  }
  const splitting = options.val !== undefined || options.valShare !== undefined;
  if (splitting ? !options.outDir : !options.out && !options.outDir)
    throw new InvalidArgumentError(
      splitting ? "a split needs --out-dir DIR" : "data import needs --out FILE (or --out-dir DIR)",
    );
  const imported = await importDataset({
    files,
    ...(options.val ? { valFile: options.val } : {}),
    ...(options.format ? { format: options.format } : {}),
    ...(options.preset ? { preset: options.preset } : {}),
    ...(options.map ? { map: options.map } : {}),
    ...(options.domain ? { domain: options.domain } : {}),
    ...(options.family ? { family: options.family } : {}),
    ...(options.time ? { time: options.time } : {}),
    ...(options.valShare !== undefined
      ? { split: { val: options.valShare, by: options.splitBy ?? "family" } }
      : {}),
    seed: options.seed,
    extractBoxed: options.extractBoxed,
    requireAnswer: options.answers,
  });
  for (const note of imported.notes) output.stderr.write(`${note}\n`);
  const written: string[] = [];
  if (options.outDir) {
    await mkdir(options.outDir, { recursive: true });
    written.push(await writeTasks(path.join(options.outDir, "train.jsonl"), imported.train));
    if (splitting) written.push(await writeTasks(path.join(options.outDir, "val.jsonl"), imported.val));
  } else written.push(await writeTasks(options.out!, imported.train));
  output.stdout.write(
    `imported ${imported.train.length} training${splitting ? ` and ${imported.val.length} validation` : ""} tasks` +
      ` (${imported.duplicates} duplicates dropped, ${imported.extracted} answers taken from \\boxed{}) into ${written.join(" and ")}\n`,
  );
  return imported;
}

/** Written whole or not at all: into a temporary file, then renamed. */
async function writeTasks(file: string, tasks: readonly Task[]): Promise<string> {
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, tasks.map((task) => `${JSON.stringify(task)}\n`).join(""));
  await rename(temporary, file);
  return file;
}
