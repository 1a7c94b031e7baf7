import type { MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { loginPage } from "./pages/login-page.js";
import {
  bearerToken,
  csrfCookie,
  csrfField,
  isLoopbackHost,
  newCsrfToken,
  sameOrigin,
  sameSecret,
  sessionCookie,
  sessionValue,
} from "./security.js";

export interface GuardOptions {
  /** TFGRPO_STUDIO_TOKEN: when set, every request needs it (Bearer header or the session cookie of /login). */
  token?: string | undefined;
  /** Mark cookies Secure (when served over HTTPS by a proxy). */
  secureCookies?: boolean;
}

export type GuardVariables = { csrf: string; viaBearer: boolean };

const contentSecurityPolicy =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-src 'self'; frame-ancestors 'self'; form-action 'self'; base-uri 'none'; object-src 'none'";

/**
 * Every request passes here first: security headers; without a token, only loopback Host names (a page on another
 * site cannot reach a loopback studio through DNS rebinding); with a token, the token or its session cookie, else 401
 * (the login form); then the CSRF cookie, and for every state-changing request a same-origin Origin and the CSRF
 * token of the form (a request that carries the Bearer token itself cannot be forged by a browser and skips it).
 */
export function guard(options: GuardOptions): MiddlewareHandler<{ Variables: GuardVariables }> {
  const token = options.token || undefined;
  const session = token ? sessionValue(token) : undefined;
  const cookieOptions = {
    httpOnly: true,
    sameSite: "Strict",
    path: "/",
    secure: options.secureCookies ?? false,
  } as const;
  return async (c, next) => {
    c.header("Content-Security-Policy", contentSecurityPolicy);
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "same-origin");
    c.header("X-Frame-Options", "SAMEORIGIN");
    const url = new URL(c.req.url);
    const host = c.req.header("host") ?? url.host;
    const hostname = host.replace(/:\d+$/, "");
    if (!token && !isLoopbackHost(hostname)) {
      return c.text(
        "this studio answers only to a loopback address (set TFGRPO_STUDIO_TOKEN to serve others)",
        403,
      );
    }
    const scheme = url.protocol.replace(":", "");
    const origin = { origin: c.req.header("origin"), referer: c.req.header("referer"), host };
    const changing = !["GET", "HEAD", "OPTIONS"].includes(c.req.method);
    let viaBearer = false;
    if (token) {
      viaBearer = sameSecret(bearerToken(c.req.header("authorization")), token);
      const signedIn = viaBearer || sameSecret(getCookie(c, sessionCookie), session!);
      if (!signedIn) {
        if (c.req.method === "POST" && url.pathname === "/login") {
          const form = await c.req.parseBody();
          const next = safeNext(String(form.next ?? "/"));
          if (
            sameOrigin(origin, scheme) &&
            sameSecret(typeof form.token === "string" ? form.token : undefined, token)
          ) {
            setCookie(c, sessionCookie, session!, cookieOptions);
            return c.redirect(next, 303);
          }
          return c.html(loginPage(next, true).value, 401);
        }
        c.header("WWW-Authenticate", 'Bearer realm="tfgrpo studio"');
        return c.html(loginPage(safeNext(url.pathname + url.search), false).value, 401);
      }
    }
    let csrf = getCookie(c, csrfCookie);
    if (!csrf || !/^[\w-]{32}$/.test(csrf)) {
      csrf = newCsrfToken();
      setCookie(c, csrfCookie, csrf, cookieOptions);
    }
    c.set("csrf", csrf);
    c.set("viaBearer", viaBearer);
    if (changing && !viaBearer) {
      if (!sameOrigin(origin, scheme))
        return c.text("refused: a state-changing request from another site", 403);
      const type = c.req.header("content-type") ?? "";
      const form = /form-urlencoded|multipart\/form-data/.test(type) ? await c.req.parseBody() : {};
      const given =
        typeof form[csrfField] === "string" ? (form[csrfField] as string) : c.req.header("x-csrf-token");
      if (!sameSecret(given, csrf))
        return c.text("refused: missing or wrong CSRF token (reload the page)", 403);
    }
    await next();
  };
}

/** A redirect target after login: a path on this server only. */
export function safeNext(next: string): string {
  return /^\/(?![/\\])[^\s]*$/.test(next) && !next.startsWith("/login") ? next : "/";
}
