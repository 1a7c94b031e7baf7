import type htmxModule from "htmx.org";
import { type Html, type HtmlValue, html } from "../html.js";
import { csrfField } from "../security.js";

export interface Flash {
  kind: "ok" | "error";
  text: string;
}

export interface PageFrame {
  title: string;
  csrf: string;
  /** The domain the page shows, for the navigation and live updates. */
  domain?: string;
  /** The head version the page was rendered at: a newer commit refreshes the page (or, with a draft open, says so). */
  head?: number | null;
  /** Live pages refresh their main region when a watched head moves. */
  live?: "domain" | "all" | "off";
  flash?: Flash | undefined;
}

// htmx.org's typings are an ES module in a CommonJS package: its default export is `.default` of the import.
type HtmxConfig = typeof htmxModule.default.config;

/**
 * htmx's settings on every page (typed by htmx itself): no indicator styles injected inline (the Content-Security-Policy
 * allows no inline style), no eval, no scripts from swapped content, requests to this server only.
 */
const htmxConfig: Partial<HtmxConfig> = {
  includeIndicatorStyles: false,
  allowEval: false,
  allowScriptTags: false,
  selfRequestsOnly: true,
};
const htmxConfigJson = JSON.stringify(htmxConfig);

/** The page shell: navigation, the flash message, local assets only (htmx and the studio's script, no CDN). */
export function layout(frame: PageFrame, body: HtmlValue): Html {
  const nav = frame.domain
    ? html` › <a href="/d/${frame.domain}">${frame.domain}</a>
        · <a href="/d/${frame.domain}/review">review</a>
        · <a href="/d/${frame.domain}/versions">versions</a>
        · <a href="/d/${frame.domain}/online">online</a>
        · <a href="/d/${frame.domain}/transfer">import / export</a>`
    : null;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="htmx-config" content="${htmxConfigJson}">
<title>${frame.title} · tfgrpo studio</title>
<link rel="stylesheet" href="/assets/studio.css">
<script src="/assets/htmx.min.js" defer></script>
<script src="/assets/studio.js" defer></script>
</head>
<body data-live="${frame.live ?? "off"}" data-domain="${frame.domain ?? ""}">
<header>
<nav aria-label="main"><a href="/" class="brand">tfgrpo studio</a>${nav} · <a href="/runs">runs</a></nav>
<div id="live-notice" role="status" aria-live="polite" hidden></div>
</header>
<main id="main" data-head="${frame.head ?? ""}">
${frame.flash ? html`<p class="flash ${frame.flash.kind}" role="${frame.flash.kind === "error" ? "alert" : "status"}">${frame.flash.text}</p>` : null}
<h1>${frame.title}</h1>
${body}
</main>
</body>
</html>`;
}

/** The hidden fields every state-changing form carries: the CSRF token and, for library edits, the head it was made on. */
export function formGuard(csrf: string, head?: number | null): Html {
  return html`<input type="hidden" name="${csrfField}" value="${csrf}">${
    head !== undefined ? html`<input type="hidden" name="expectedHead" value="${head ?? ""}">` : null
  }`;
}

export function formatNumber(value: number, digits = 2): string {
  return Number.isFinite(value) ? value.toFixed(digits) : "∞";
}
