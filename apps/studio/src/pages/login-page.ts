import { type Html, html } from "../html.js";

/** Answered with 401 to every request without the token: a form that trades the token for a session cookie. */
export function loginPage(next: string, failed: boolean): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in · tfgrpo studio</title><link rel="stylesheet" href="/assets/studio.css"></head>
<body><main id="main"><h1>tfgrpo studio</h1>
${failed ? html`<p class="flash error" role="alert">That token is not right.</p>` : null}
<p>This studio listens beyond loopback and needs its token (<code>TFGRPO_STUDIO_TOKEN</code>).</p>
<form method="post" action="/login"><input type="hidden" name="next" value="${next}">
<label>Token <input type="password" name="token" autocomplete="current-password" required autofocus></label>
<button type="submit">Sign in</button></form></main></body></html>`;
}
