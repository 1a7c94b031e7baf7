import { Option } from "commander";

/** `--db <path>`: the workspace database (resolved by resolveDatabase: the flag, else $TFGRPO_DB, else the default). */
export function databaseOption(
  description = "workspace database (default: $TFGRPO_DB, else .tfgrpo/tfgrpo.db)",
): Option {
  return new Option("--db <path>", description);
}
