import { TfgrpoError } from "@tfgrpo/protocol";
import { readLearnerStatus, renderLearnerStatus } from "@tfgrpo/serving";
import { createStore } from "@tfgrpo/store";
import type { Command } from "commander";
import type { z } from "zod";
import { requireExistingDatabase } from "../cli-options/require-existing-database.js";
import { resolveDatabase } from "../commands/library.js";
import type { OnlineControlOptions } from "../commands/online-command-options.js";
import { onlineControlDeclaredSchema } from "../commands/online-command-options.js";
import { parseCommandOptions } from "../commands/parse-command-options.js";

export type { OnlineControlOptions };

export interface OnlineControlOutput {
  stdout: (text: string) => void;
}

/** `tfgrpo online status`: the domain's learner as the store holds it (lease, canary, window, cursor, decisions). */
export async function onlineStatus(
  options: OnlineControlOptions,
  output: OnlineControlOutput,
): Promise<void> {
  const db = resolveDatabase(options);
  requireExistingDatabase(db);
  const store = await createStore(db, { mustExist: true });
  try {
    const status = await readLearnerStatus(store, options.domain);
    output.stdout(options.json ? `${JSON.stringify(status)}\n` : renderLearnerStatus(status));
  } finally {
    await store.close();
  }
}

/** `tfgrpo online pause|resume`: stored, so the learner (wherever it runs) stops or starts learning; serving goes on. */
export async function onlinePause(
  paused: boolean,
  options: OnlineControlOptions,
  output: OnlineControlOutput,
): Promise<void> {
  const db = resolveDatabase(options);
  requireExistingDatabase(db);
  const store = await createStore(db, { mustExist: true });
  try {
    const record = await store.setLearnerPaused(options.domain, paused);
    output.stdout(
      options.json
        ? `${JSON.stringify({ domain: options.domain, paused: record.paused, pausedAt: record.pausedAt })}\n`
        : `online learning of ${options.domain}: ${paused ? "paused (serving goes on; the learner learns nothing until resumed)" : "resumed"}\n`,
    );
  } finally {
    await store.close();
  }
}

/**
 * A subcommand's options (status, pause, resume, clients) checked against its schema: the parent `online` has --domain,
 * --db and --json too, and whichever of the two commander gave them to is read. --domain is required.
 */
export function subcommandOptions<Schema extends z.ZodType<{ domain?: string }>>(
  schema: Schema,
  options: Record<string, unknown>,
  command: Command,
): z.infer<Schema> & { domain: string } {
  const name = `online ${command.name()}`;
  const all = parseCommandOptions(name, schema, withParentOptions(options, command));
  if (!all.domain) throw new TfgrpoError("invalid_input", `${name} needs --domain (e.g. --domain math)`);
  return all as z.infer<Schema> & { domain: string };
}

/** A subcommand's options with the parent's --domain, --db and --json where commander gave those to the parent. */
export function withParentOptions(
  options: Record<string, unknown>,
  command: Command,
): Record<string, unknown> {
  const parent = command.parent?.opts() ?? {};
  const shared = Object.fromEntries(
    (["domain", "db", "json"] as const)
      .filter((key) => parent[key] !== undefined)
      .map((key) => [key, parent[key]]),
  );
  return { ...shared, ...options };
}

/** A control subcommand's options (status, pause, resume). */
export function controlOptions(options: Record<string, unknown>, command: Command): OnlineControlOptions {
  return subcommandOptions(onlineControlDeclaredSchema, options, command);
}
