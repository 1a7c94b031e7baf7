import { TfgrpoError } from "@tfgrpo/protocol";
import { readLearnerStatus, renderLearnerStatus } from "@tfgrpo/serving";
import { createStore } from "@tfgrpo/store";
import { type Command, Option } from "commander";
import { databaseOption, requireExistingDatabase } from "../cli-options/database-option.js";
import { domainArgument } from "../cli-options/domain-argument.js";
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

/** The operator's subcommands of `tfgrpo online`. */
export function registerOnlineControls(online: Command): void {
  const stdout = { stdout: (text: string) => process.stdout.write(text) };
  // The parent `online` has --domain, --db and --json too: whichever of the two parsed them, both are read.
  const merged = (options: Partial<OnlineControlOptions>, command: Command): OnlineControlOptions => {
    const all = { ...command.parent?.opts(), ...options } as Partial<OnlineControlOptions>;
    if (!all.domain)
      throw new TfgrpoError("invalid_input", `online ${command.name()} needs --domain (e.g. --domain math)`);
    return all as OnlineControlOptions;
  };
  online
    .command("status")
    .description(
      "The domain's online learner: lease holder (host, pid), canary and its counts, window, cursor, last decisions",
    )
    .option("--domain <domain>", "the library domain (required)", domainArgument)
    .addOption(databaseOption())
    .addOption(new Option("--json", "print the status as JSON"))
    .action(async (options: OnlineControlOptions, command: Command) => {
      await onlineStatus(merged(options, command), stdout);
    });
  for (const [name, paused] of [
    ["pause", true],
    ["resume", false],
  ] as const) {
    online
      .command(name)
      .description(
        paused
          ? "Pause online learning of a domain (stored; serving goes on, the learner stops learning)"
          : "Resume online learning of a domain",
      )
      .option("--domain <domain>", "the library domain (required)", domainArgument)
      .addOption(databaseOption())
      .addOption(new Option("--json", "print the result as JSON"))
      .action(async (options: OnlineControlOptions, command: Command) => {
        await onlinePause(paused, merged(options, command), stdout);
      });
  }
}
