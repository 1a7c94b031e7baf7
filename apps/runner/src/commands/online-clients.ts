import { TfgrpoError } from "@tfgrpo/protocol";
import { type ClientSummary, createStore } from "@tfgrpo/store";
import { requireExistingDatabase } from "../cli-options/require-existing-database.js";
import { resolveDatabase } from "./library.js";
import type { OnlineClientsOptions } from "./online-command-options.js";

export type { OnlineClientsOptions };

export interface OnlineClientsOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env?: NodeJS.ProcessEnv;
}

/**
 * `tfgrpo online clients --domain D [--db URL] [--json] [--exclude NAME | --include NAME]`: the clients that served
 * and reported in a domain (as their client tokens name them; anonymous traffic is one row), with their counts and
 * success rates, and the operator's exclusions. An excluded client's outcomes stay stored but the learner reads none
 * of them (the store's `listOutcomes` leaves them out), from the next read on.
 */
export async function onlineClients(
  options: OnlineClientsOptions,
  output: OnlineClientsOutput,
): Promise<void> {
  if (options.exclude !== undefined && options.include !== undefined) {
    throw new TfgrpoError("invalid_input", "online clients: give --exclude or --include, not both");
  }
  const db = resolveDatabase(options, output.env ?? process.env);
  requireExistingDatabase(db);
  const store = await createStore(db, { mustExist: true });
  try {
    const change = options.exclude ?? options.include;
    if (change !== undefined) {
      const excluded = options.exclude !== undefined;
      await store.setClientExcluded(options.domain, change, excluded, {
        ...(options.reason ? { reason: options.reason } : {}),
      });
      output.stderr(
        excluded
          ? `online clients: ${change} excluded from learning in ${options.domain}: its outcomes stay stored, the learner skips them\n`
          : `online clients: ${change} included again in ${options.domain}: the learner reads its outcomes from its next read\n`,
      );
    }
    const clients = await store.listClients(options.domain);
    if (change !== undefined && !clients.some((row) => row.client === change && row.selections > 0)) {
      output.stderr(`online clients: note: no traffic from ${change} in ${options.domain} yet\n`);
    }
    output.stdout(
      options.json
        ? `${JSON.stringify({ domain: options.domain, clients })}\n`
        : renderClients(options.domain, clients),
    );
  } finally {
    await store.close();
  }
}

const pct = (rate: number | null) => (rate === null ? "-" : `${(rate * 100).toFixed(1)}%`);

export function renderClients(domain: string, clients: readonly ClientSummary[]): string {
  if (clients.length === 0) return `no clients have served or reported in ${domain}\n`;
  const rows = [
    ["client", "selections", "outcomes", "success", "learning"],
    ...clients.map((row) => [
      row.client ?? "(anonymous)",
      String(row.selections),
      String(row.outcomes),
      pct(row.successRate),
      row.excludedAt === null
        ? "included"
        : `EXCLUDED since ${row.excludedAt}${row.reason ? ` (${row.reason})` : ""}`,
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) =>
        column === 0 || column === 4 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
      )
      .join("  ")
      .trimEnd();
  return `${rows.map(line).join("\n")}\n`;
}
