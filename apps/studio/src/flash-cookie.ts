import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Flash } from "./pages/layout.js";

const flashCookie = "tfgrpo_studio_flash";

/**
 * The message of an action, carried across its redirect in a short-lived cookie rather than the URL: a link from
 * elsewhere cannot make the studio show words it did not say, and a refresh does not repeat the message.
 */
export function setFlash(c: Context, flash: Flash, secure: boolean): void {
  const value = Buffer.from(JSON.stringify({ kind: flash.kind, text: flash.text.slice(0, 1500) })).toString(
    "base64url",
  );
  setCookie(c, flashCookie, value, { httpOnly: true, sameSite: "Strict", path: "/", maxAge: 60, secure });
}

/** The pending message, if any (read once: the cookie is cleared). */
export function takeFlash(c: Context): Flash | undefined {
  const value = getCookie(c, flashCookie);
  if (value === undefined) return undefined;
  deleteCookie(c, flashCookie, { path: "/" });
  try {
    const parsed = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as {
      kind?: unknown;
      text?: unknown;
    };
    if (typeof parsed.text !== "string") return undefined;
    return { kind: parsed.kind === "error" ? "error" : "ok", text: parsed.text };
  } catch {
    return undefined;
  }
}
