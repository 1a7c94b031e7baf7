import { TfgrpoError } from "@tfgrpo/protocol";
import { readLearnerStatus, renderLearnerStatus } from "@tfgrpo/serving";
import { createStore } from "@tfgrpo/store";
import type { Command } from "commander";
import { requireExistingDatabase } from "../cli-options/require-existing-database.js";
import { resolveDatabase } from "../commands/library.js";

export interface OnlineControlOptions {
  domain: string;
  db?: string;
  json?: boolean;
}

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
 * A control subcommand's options: the parent `online` has --domain, --db and --json too, and whichever of the two
 * commander gave them to is read.
 */
export function controlOptions(
  options: Partial<OnlineControlOptions>,
  command: Command,
): OnlineControlOptions {
  const all = { ...command.parent?.opts(), ...options } as Partial<OnlineControlOptions>;
  if (!all.domain)
    throw new TfgrpoError("invalid_input", `online ${command.name()} needs --domain (e.g. --domain math)`);
  return all as OnlineControlOptions;
}
