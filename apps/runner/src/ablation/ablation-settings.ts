import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { safeParseJson, TfgrpoError } from "@tfgrpo/protocol";
import { InvalidArgumentError } from "commander";
import { z } from "zod";
import type { AblateOptions } from "../commands/ablate-command-options.js";
import { paperSimFall } from "./sim-fall.js";

/** What an ablation workspace is run with; kept in `ablation.json` so `--resume DIR` continues with the same. */
const settingsSchema = z.object({
  domain: z.string().min(1),
  simulated: z.boolean(),
  /** The models config of a run on real models (the sim world's config is found again at each start). */
  config: z.string().nullable(),
  data: z.object({ train: z.string(), val: z.string(), test: z.string() }),
  /** Sizes of the generated sim suites (null: the user's files). */
  sizes: z.object({ train: z.number().int(), val: z.number().int(), test: z.number().int() }).nullable(),
  /** Chance the sim policy falls into a pitfall nothing in its prompt addresses (null: the sim's default). */
  simFall: z.number().min(0).max(1).nullable(),
  seed: z.number().int(),
  epochs: z.number().int().min(1),
  groupSize: z.number().int().min(2),
  batchSize: z.number().int().min(1).nullable(),
  k: z.number().int().min(1),
  mode: z.enum(["tools", "direct"]),
  directLessons: z.number().int().min(1).nullable(),
});
export type AblationSettings = z.infer<typeof settingsSchema>;

export type { AblateOptions };

/** A new workspace's settings from the options (written down), or an earlier workspace's (read back). */
export async function ablationSettingsFor(
  workspace: string,
  options: AblateOptions,
): Promise<AblationSettings> {
  const file = path.join(workspace, "ablation.json");
  if (options.resume) {
    if (!existsSync(file))
      throw new TfgrpoError(
        "not_found",
        `--resume ${options.resume}: no ablation.json there (not an ablation workspace)`,
      );
    const parsed = safeParseJson(await readFile(file, "utf8"));
    const settings = parsed.success ? settingsSchema.safeParse(parsed.value) : null;
    if (!settings?.success)
      throw new TfgrpoError("invalid_input", `--resume ${options.resume}: ablation.json is not readable`);
    return settings.data;
  }
  if (options.groupSize < 2)
    throw new InvalidArgumentError(
      "--group-size is the full method's G and must be at least 2 (G = 1 is its own setting)",
    );
  let data: AblationSettings["data"];
  if (options.sim) {
    if (options.domain !== "math" && options.domain !== "web")
      throw new InvalidArgumentError("ablate --sim knows the domains math and web");
    data = {
      train: path.join(workspace, `${options.domain}-train.jsonl`),
      val: path.join(workspace, `${options.domain}-val.jsonl`),
      test: path.join(workspace, `${options.domain}-test.jsonl`),
    };
  } else {
    for (const [flag, value] of [
      ["--config", options.config],
      ["--train", options.train],
      ["--val", options.val],
      ["--test", options.test],
    ] as const) {
      if (!value) throw new InvalidArgumentError(`ablate needs ${flag} (or --sim)`);
    }
    data = {
      train: path.resolve(options.train!),
      val: path.resolve(options.val!),
      test: path.resolve(options.test!),
    };
  }
  const settings: AblationSettings = {
    domain: options.domain,
    simulated: Boolean(options.sim),
    config: options.config ? path.resolve(options.config) : null,
    data,
    sizes: options.sim ? { train: options.trainSize, val: options.valSize, test: options.testSize } : null,
    simFall: options.sim ? (options.simFall ?? paperSimFall) : null,
    seed: options.seed,
    epochs: options.epochs,
    groupSize: options.groupSize,
    batchSize: options.batchSize ?? null,
    k: options.k,
    mode: options.mode,
    directLessons: options.directLessons ?? null,
  };
  await writeFile(file, `${JSON.stringify(settings, null, 2)}\n`, "utf8");
  return settings;
}
