/**
 * Clients of the library service, as their reports name them (a client token names a client; see `tfgrpo mcp
 * --client-tokens`). An operator reads each client's counts and can exclude one: an excluded client's outcomes
 * stay stored (and still credit the entries they showed, as they did when reported) but are not learned from any
 * more: `listOutcomes` leaves them out unless asked for them (`includeExcluded`).
 */

export interface ClientSummary {
  /** null: selections and outcomes that named no client. */
  client: string | null;
  /** Selections served to it. */
  selections: number;
  /** Outcomes reported by it (or for its selections, when the report named nobody). */
  outcomes: number;
  successes: number;
  /** successes / outcomes; null without outcomes. */
  successRate: number | null;
  /** When it was excluded from learning; null while included. */
  excludedAt: string | null;
  reason: string | null;
}

export interface ClientExclusionOptions {
  reason?: string;
  now?: Date;
}

export interface ClientStore {
  /** Every client with selections, outcomes or an exclusion in the domain, the anonymous ones (null) first, then by name. */
  listClients(domain: string): Promise<ClientSummary[]>;
  /** Excludes a client's outcomes from learning (`excluded: true`) or includes them again; idempotent. */
  setClientExcluded(
    domain: string,
    client: string,
    excluded: boolean,
    options?: ClientExclusionOptions,
  ): Promise<void>;
}
