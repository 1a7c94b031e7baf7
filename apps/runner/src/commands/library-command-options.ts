import { experienceStatusSchema } from "@tfgrpo/protocol";
import { z } from "zod";

/**
 * The options of `tfgrpo library list | show | diff | rollback | export | import` (cli-commands/library.ts), checked
 * key for key by command-options.test.ts, and what each subcommand's options go through before it runs.
 */
const database = { db: z.string().optional() };
const libraryFormat = z.enum(["json", "plain", "markdown"]);

export const libraryListCommandOptionsSchema = z
  .object({ ...database, domain: z.string().optional() })
  .strict();

export const libraryShowCommandOptionsSchema = z
  .object({
    ...database,
    domain: z.string(),
    version: z.string().optional(),
    entry: z.string().optional(),
    all: z.boolean().optional(),
    wide: z.boolean().optional(),
    json: z.boolean().optional(),
    costs: z.boolean().optional(),
  })
  .strict();

/** `library diff` and `library rollback`: the database and the domain. */
export const libraryDomainCommandOptionsSchema = z.object({ ...database, domain: z.string() }).strict();

export const libraryExportCommandOptionsSchema = z
  .object({
    ...database,
    domain: z.string(),
    format: libraryFormat,
    version: z.string().optional(),
    out: z.string().optional(),
  })
  .strict();

export const libraryImportCommandOptionsSchema = z
  .object({
    ...database,
    domain: z.string().optional(),
    format: z.union([libraryFormat, z.literal("auto")]),
    status: experienceStatusSchema,
    replace: z.boolean().optional(),
  })
  .strict();
