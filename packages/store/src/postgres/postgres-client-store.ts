import { checkDomain } from "../base-library-store.js";
import { type ClientSummaryRow, clientSummarySql, parseExclusion, toClientSummary } from "../client-rows.js";
import type { ClientExclusionOptions, ClientStore, ClientSummary } from "../client-store.js";
import type { PostgresConnection } from "./postgres-connection.js";

/** Clients and their exclusions (`client_exclusions`) of a PostgreSQL store. */
export class PostgresClientStore implements ClientStore {
  private readonly connection: PostgresConnection;

  constructor(connection: PostgresConnection) {
    this.connection = connection;
  }

  async listClients(domain: string): Promise<ClientSummary[]> {
    checkDomain(domain);
    const rows = (await this.connection.query<ClientSummaryRow>(clientSummarySql("postgres"), [domain])).rows;
    return rows.map(toClientSummary);
  }

  async setClientExcluded(
    domain: string,
    client: string,
    excluded: boolean,
    options: ClientExclusionOptions = {},
  ): Promise<void> {
    parseExclusion(domain, client);
    if (!excluded) {
      await this.connection.query("DELETE FROM client_exclusions WHERE domain = $1 AND client = $2", [
        domain,
        client,
      ]);
      return;
    }
    // Excluding again keeps the first time and reason: the operator's record of when it began.
    await this.connection.query(
      `INSERT INTO client_exclusions (domain, client, excluded_at, reason) VALUES ($1, $2, $3, $4)
       ON CONFLICT (domain, client) DO NOTHING`,
      [domain, client, (options.now ?? this.connection.now()).toISOString(), options.reason ?? null],
    );
  }
}
