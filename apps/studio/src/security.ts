import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";

export const sessionCookie = "tfgrpo_studio_session";
export const csrfCookie = "tfgrpo_studio_csrf";
export const csrfField = "_csrf";

/** 127.0.0.0/8, ::1 and localhost: the only binds that need no token. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (bare === "localhost" || bare === "::1" || bare === "0:0:0:0:0:0:0:1") return true;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  return bare.startsWith("::ffff:127.");
}

/** Constant-time equality of two secrets (different lengths are simply unequal). */
export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What the session cookie holds: derived from the token, so the cookie never carries the token itself. */
export function sessionValue(token: string): string {
  return createHmac("sha256", token).update("tfgrpo-studio-session").digest("hex");
}

export function newCsrfToken(): string {
  return randomBytes(24).toString("base64url");
}

/** The bearer token of an `Authorization` header, if any. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1];
}

/**
 * A state-changing request is same-site when its Origin (or, without one, its Referer) is this server's own origin.
 * Browsers send Origin on every cross-site POST, so a form posted from another site is refused here even before its
 * CSRF token is checked; a request with neither header (a script, curl) must still carry the CSRF token.
 */
export function sameOrigin(
  request: { origin?: string; referer?: string; host?: string },
  scheme: string,
): boolean {
  if (!request.host) return false;
  const own = `${scheme}://${request.host}`.toLowerCase();
  if (request.origin !== undefined) return request.origin.toLowerCase() === own;
  if (request.referer !== undefined) {
    try {
      return new URL(request.referer).origin.toLowerCase() === own;
    } catch {
      return false;
    }
  }
  return true;
}
