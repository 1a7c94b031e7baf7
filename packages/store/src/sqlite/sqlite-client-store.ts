import { checkDomain } from "../base-library-store.js";
import { type ClientSummaryRow, clientSummarySql, parseExclusion, toClientSummary } from "../client-rows.js";
import type { ClientExclusionOptions, ClientStore, ClientSummary } from "../client-store.js";
import type { SqliteConnection } from "./sqlite-connection.js";

/** Clients and their exclusions (`client_exclusions`) on the shared connection of a SQLite store. */
export class SqliteClientStore implements ClientStore {
  private readonly connection: SqliteConnection;

  constructor(connection: SqliteConnection) {
    this.connection = connection;
  }

  async listClients(domain: string): Promise<ClientSummary[]> {
    checkDomain(domain);
    const rows = this.connection.stmt(clientSummarySql("sqlite")).all({ domain }) as ClientSummaryRow[];
    return rows.map(toClientSummary);
  }

  async setClientExcluded(
    domain: string,
    client: string,
    excluded: boolean,
    options: ClientExclusionOptions = {},
  ): Promise<void> {
    parseExclusion(domain, client);
    const at = (options.now ?? this.connection.now()).toISOString();
    this.connection.write(() => {
      if (!excluded) {
        this.connection
          .stmt("DELETE FROM client_exclusions WHERE domain = ? AND client = ?")
          .run(domain, client);
        return;
      }
      // Excluding again keeps the first time and reason: the operator's record of when it began.
      this.connection
        .stmt(
          `INSERT INTO client_exclusions (domain, client, excluded_at, reason) VALUES (?, ?, ?, ?)
           ON CONFLICT (domain, client) DO NOTHING`,
        )
        .run(domain, client, at, options.reason ?? null);
    });
  }
}
