import { checkDomain } from "./base-library-store.js";
import type { ClientSummary } from "./client-store.js";
import { clientSchema } from "./outcome-validation.js";
import { parseRecord } from "./sql/stored-json.js";

/** Client summaries as both backends read them (`served_selections`, `outcomes`, `client_exclusions`). */

export interface ClientSummaryRow {
  client: string | null;
  selections: number | string;
  outcomes: number | string;
  successes: number | string;
  excluded_at: string | null;
  reason: string | null;
}

/**
 * One statement over the domain's selections, outcomes and exclusions. `sameAs` is the backend's null-safe equality
 * (anonymous traffic is one row), the domain is one named parameter (`@domain`, `$1`).
 */
export function clientSummarySql(dialect: "sqlite" | "postgres"): string {
  const sameAs = dialect === "sqlite" ? "IS" : "IS NOT DISTINCT FROM";
  // Four mentions of the domain: the caller binds it four times (`?` placeholders).
  const domain = "?";
  const order = dialect === "sqlite" ? "names.client" : 'names.client COLLATE "C"';
  return `WITH sel AS (
      SELECT client, count(*) AS n FROM served_selections WHERE domain = ${domain} GROUP BY client
    ), out AS (
      SELECT coalesce(o.client, s.client) AS client, count(*) AS n,
        sum(CASE WHEN o.success THEN 1 ELSE 0 END) AS successes
      FROM outcomes o JOIN served_selections s USING (selection_id) WHERE o.domain = ${domain}
      GROUP BY coalesce(o.client, s.client)
    ), names AS (
      SELECT client FROM sel UNION SELECT client FROM out
      UNION SELECT client FROM client_exclusions WHERE domain = ${domain}
    )
    SELECT names.client, coalesce(sel.n, 0) AS selections, coalesce(out.n, 0) AS outcomes,
      coalesce(out.successes, 0) AS successes, x.excluded_at, x.reason
    FROM names
      LEFT JOIN sel ON sel.client ${sameAs} names.client
      LEFT JOIN out ON out.client ${sameAs} names.client
      LEFT JOIN client_exclusions x ON x.domain = ${domain} AND x.client = names.client
    ORDER BY names.client IS NOT NULL, ${order}`;
}

export function toClientSummary(row: ClientSummaryRow): ClientSummary {
  const outcomes = Number(row.outcomes);
  const successes = Number(row.successes);
  return {
    client: row.client,
    selections: Number(row.selections),
    outcomes,
    successes,
    successRate: outcomes === 0 ? null : successes / outcomes,
    excludedAt: row.excluded_at,
    reason: row.reason,
  };
}

/** The domain and client name of an exclusion, checked as every backend checks them. */
export function parseExclusion(domain: string, client: string): void {
  checkDomain(domain);
  parseRecord(clientSchema, client, "client name");
}
