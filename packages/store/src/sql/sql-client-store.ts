import { checkDomain } from "../base-library-store.js";
import { type ClientSummaryRow, clientSummarySql, parseExclusion, toClientSummary } from "../client-rows.js";
import type { ClientExclusionOptions, ClientStore, ClientSummary } from "../client-store.js";
import { all, run, type SqlPort } from "./sql-port.js";

/** Clients and their exclusions (`client_exclusions`) of a SQL store. */
export class SqlClientStore implements ClientStore {
  constructor(private readonly db: SqlPort) {}

  async listClients(domain: string): Promise<ClientSummary[]> {
    checkDomain(domain);
    const text = clientSummarySql(this.db.dialect.name);
    const rows = await this.db.run(() => all<ClientSummaryRow>(text, [domain, domain, domain, domain]));
    return rows.map(toClientSummary);
  }

  async setClientExcluded(
    domain: string,
    client: string,
    excluded: boolean,
    options: ClientExclusionOptions = {},
  ): Promise<void> {
    parseExclusion(domain, client);
    const at = (options.now ?? this.db.now()).toISOString();
    await this.db.write(() =>
      excluded
        ? // Excluding again keeps the first time and reason: the operator's record of when it began.
          run(
            `INSERT INTO client_exclusions (domain, client, excluded_at, reason) VALUES (?, ?, ?, ?)
             ON CONFLICT (domain, client) DO NOTHING`,
            [domain, client, at, options.reason ?? null],
          )
        : run("DELETE FROM client_exclusions WHERE domain = ? AND client = ?", [domain, client]),
    );
  }
}
