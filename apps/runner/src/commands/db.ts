import { TfgrpoError } from "@tfgrpo/protocol";
import {
  type CopiedTable,
  copyLibraries,
  copyRecords,
  createStore,
  formatDeadline,
  parseRetentionPolicy,
  type RetentionPolicy,
  redactUrl,
  retentionSettingsFromEnv,
} from "@tfgrpo/store";
import type { DbCopyOptions, DbPruneOptions } from "./db-command-options.js";

export type { DbCopyOptions };

/**
 * `tfgrpo db copy`: libraries and everything recorded beside them (runs, trajectories, usage, selections, outcomes,
 * contrasts, retention's aggregates) from one database to another, exactly (SQLite file <-> PostgreSQL, both ways).
 * A target holding any of it is refused before anything is written.
 */
export async function dbCopy(
  options: DbCopyOptions,
  output: { stdout: NodeJS.WritableStream } = process,
): Promise<void> {
  if (!options.from || !options.to) {
    throw new TfgrpoError("invalid_input", "db copy needs --from URL and --to URL");
  }
  const scope = options.domain ? { domains: options.domain } : {};
  // Refused before the libraries are written, so a clash leaves the target as it was.
  if (!options.librariesOnly) await copyRecords(options.from, options.to, { ...scope, checkOnly: true });
  const copied = await copyLibraries(options.from, options.to, scope);
  for (const library of copied) {
    output.stdout.write(
      `${library.domain}: ${library.versions} version(s), head ${library.head === null ? "none" : `v${library.head}`}, ${library.rows} entry row(s)\n`,
    );
  }
  const records: CopiedTable[] = options.librariesOnly
    ? []
    : await copyRecords(options.from, options.to, scope);
  const nonEmpty = records.filter((table) => table.rows > 0);
  if (nonEmpty.length > 0) {
    output.stdout.write(
      `records: ${nonEmpty
        .map((t) => `${t.rows} ${t.table}${t.seqOffset ? ` (seq moved by ${t.seqOffset})` : ""}`)
        .join(", ")}\n`,
    );
  }
  output.stdout.write(
    `copied ${copied.length} librar${copied.length === 1 ? "y" : "ies"}${options.librariesOnly ? "" : ` and ${records.reduce((sum, t) => sum + t.rows, 0)} record row(s)`} from ${redactUrl(options.from)} to ${redactUrl(options.to)}\n`,
  );
}

export type { DbPruneOptions };

/**
 * `tfgrpo db prune --db URL [--dry-run]`: one retention pass now (what the serving processes' sweep does every
 * 10 minutes): selections past the report deadline marked "no report", old outcomes and expired selections compacted
 * into aggregates, old trajectories dropped. `--dry-run` shows the policy and the counts per domain, changing nothing.
 */
export async function dbPrune(
  options: DbPruneOptions,
  output: { stdout: NodeJS.WritableStream } = process,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  if (!options.db) throw new TfgrpoError("invalid_input", "db prune needs --db URL");
  const overrides: Partial<RetentionPolicy> = {};
  for (const key of [
    "reportDeadlineMs",
    "outcomeMaxAgeDays",
    "maxOutcomesPerDomain",
    "keepLatestOutcomes",
    "trajectoryMaxAgeDays",
    "unreportedMaxAgeDays",
  ] as const) {
    if (options[key] !== undefined) overrides[key] = Number(options[key]);
  }
  const policy = parseRetentionPolicy({ ...retentionSettingsFromEnv(env).policy, ...overrides });
  const store = await createStore(options.db, { mustExist: true });
  try {
    output.stdout.write(
      `policy: report deadline ${formatDeadline(policy.reportDeadlineMs)}; outcomes kept ${policy.outcomeMaxAgeDays} d, at most ${policy.maxOutcomesPerDomain} per domain, the latest ${policy.keepLatestOutcomes} always; trajectories ${policy.trajectoryMaxAgeDays} d; unreported selections ${policy.unreportedMaxAgeDays} d\n`,
    );
    const domains = (await store.listDomains()).map((d) => d.domain);
    const show = async (label: string) => {
      for (const domain of domains) {
        const s = await store.outcomeStats(domain, { reportDeadlineMs: policy.reportDeadlineMs });
        if (s.served === 0) continue;
        output.stdout.write(
          `${label} ${domain}: served ${s.served}, reported ${s.reported} (${s.successes} successes), no report ${s.noReport}, awaiting ${s.awaiting}; ${s.liveOutcomes} outcome rows live, ${s.compacted} selections compacted\n`,
        );
      }
    };
    await show(options.dryRun ? "now" : "before");
    if (options.dryRun) {
      output.stdout.write("dry run: nothing changed\n");
      return;
    }
    const result = await store.applyRetention(policy);
    output.stdout.write(
      `pruned: ${result.expired} selection(s) marked no report, ${result.compactedOutcomes} outcome(s) and ${result.compactedUnreported} unreported selection(s) compacted into aggregates, ${result.trajectoriesDropped} trajectory(ies) dropped, in ${result.batches} batch(es)\n`,
    );
    await show("after");
  } finally {
    await store.close();
  }
}
