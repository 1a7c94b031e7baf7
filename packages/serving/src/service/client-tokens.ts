import { createHash } from "node:crypto";
import { TfgrpoError } from "@tfgrpo/protocol";

/**
 * Which client a token names. Tokens are kept only as SHA-256 digests: a lookup compares digests, so neither the
 * tokens nor the time a comparison takes tell a caller anything about the others.
 */
export interface ClientTokens {
  /** The client a token names; undefined for an unknown token. */
  clientOf(token: string): string | undefined;
  /** Client names, sorted. */
  readonly clients: readonly string[];
}

/** A client name as stored with its outcomes and shown to operators. */
export const clientNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** Shorter tokens are guessable. */
const minTokenLength = 12;

const digest = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Parses client tokens: one `name:token` (or `name token`) per line, `#` comments and blank lines ignored, as in a
 * `--client-tokens FILE`; or, with `separator: ","`, the same pairs on one line (`TFGRPO_CLIENT_TOKENS`). A name
 * may have several tokens (to rotate one); a token names one client. `source` names the origin in errors.
 */
export function parseClientTokens(
  text: string,
  source: string,
  options: { separator?: "," } = {},
): ClientTokens {
  const byDigest = new Map<string, string>();
  const parts = options.separator ? text.split(options.separator) : text.split(/\r?\n/);
  for (const [index, raw] of parts.entries()) {
    const line = raw.replace(/#.*$/, "").trim();
    if (line === "") continue;
    const where = options.separator ? `${source} entry ${index + 1}` : `${source}:${index + 1}`;
    const match = /^([^\s:]+)\s*[:\s]\s*(\S+)$/.exec(line);
    if (!match)
      throw new TfgrpoError("invalid_config", `${where}: expected "name:token"`, { details: { source } });
    const [, name, token] = match as unknown as [string, string, string];
    if (!clientNamePattern.test(name)) {
      throw new TfgrpoError(
        "invalid_config",
        `${where}: client name "${name}" must be 1-64 letters, digits, dots, dashes or underscores`,
        { details: { source } },
      );
    }
    if (token.length < minTokenLength) {
      throw new TfgrpoError(
        "invalid_config",
        `${where}: the token of client ${name} is shorter than ${minTokenLength} characters`,
        { details: { source, client: name } },
      );
    }
    const key = digest(token);
    const earlier = byDigest.get(key);
    if (earlier !== undefined && earlier !== name) {
      throw new TfgrpoError("invalid_config", `${where}: one token names two clients (${earlier}, ${name})`, {
        details: { source },
      });
    }
    byDigest.set(key, name);
  }
  if (byDigest.size === 0) {
    throw new TfgrpoError("invalid_config", `${source}: no client tokens (expected "name:token" lines)`, {
      details: { source },
    });
  }
  const clients = [...new Set(byDigest.values())].sort();
  return { clients, clientOf: (token) => byDigest.get(digest(token)) };
}

/** The bearer token of an `Authorization` header value, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1];
}
