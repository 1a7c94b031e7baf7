import { request as httpRequest } from "node:http";
import path from "node:path";
import { TfgrpoError } from "@tfgrpo/protocol";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createStore, type Store } from "@tfgrpo/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isLoopbackHost, sessionCookie } from "./security.js";
import { type RunningStudio, startStudio } from "./start-studio.js";
import { seededRunId, seedStudioLibrary } from "./testing/seed-library.js";

// A real server bound beyond loopback (0.0.0.0), reached over HTTP on 127.0.0.1 with fetch.
const token = "studio-test-token-7f3a";
let directory: TemporaryDirectory;
let store: Store;
let studio: RunningStudio;
let base: string;

const routes = [
  ["GET", "/"],
  ["GET", "/d/math"],
  ["GET", "/d/math?v=1&q=fraction&sort=utility&dir=desc"],
  ["GET", "/d/math/e/G0"],
  ["GET", "/d/math/diff?from=1&to=2"],
  ["GET", "/d/math/versions"],
  ["GET", "/d/math/review"],
  ["GET", "/d/math/transfer"],
  ["GET", "/d/math/export?format=json"],
  ["GET", "/runs"],
  ["GET", `/runs/${seededRunId}`],
  ["GET", `/runs/${seededRunId}/report`],
  ["GET", "/events"],
  ["GET", "/assets/studio.js"],
  ["GET", "/assets/htmx.min.js"],
  ["GET", "/no/such/route"],
  ["POST", "/d/math/actions/approve"],
  ["POST", "/d/math/actions/rollback"],
  ["POST", "/d/math/import"],
  ["POST", "/logout"],
] as const;

beforeAll(async () => {
  directory = await temporaryDirectory("tfgrpo-studio-security-");
  store = await createStore(path.join(directory.path, "tfgrpo.db"));
  await seedStudioLibrary(store);
  studio = await startStudio({
    store,
    host: "0.0.0.0",
    port: 0,
    token,
    renderRunReport: async () => "<p>report</p>",
  });
  base = `http://127.0.0.1:${studio.port}`;
});
afterAll(async () => {
  await studio?.close();
  await store?.close();
  await directory?.[Symbol.asyncDispose]();
});

describe("studio safety", () => {
  it("refuses to start beyond loopback without a token, naming the host and the variable", async () => {
    const error = await startStudio({ store, host: "0.0.0.0", port: 0 }).catch((e: unknown) => e);
    expect(TfgrpoError.hasCode(error, "invalid_config")).toBe(true);
    expect((error as Error).message).toBe(
      "refusing to serve the studio on 0.0.0.0 without a token: set TFGRPO_STUDIO_TOKEN (or bind to 127.0.0.1)",
    );
    expect(isLoopbackHost("127.0.0.1")).toBe(true);
    expect(isLoopbackHost("::1")).toBe(true);
    expect(isLoopbackHost("localhost")).toBe(true);
    expect(isLoopbackHost("0.0.0.0")).toBe(false);
    expect(isLoopbackHost("192.168.1.4")).toBe(false);
  });

  it("answers 401 to every route without the token (and with a wrong one)", async () => {
    for (const [method, route] of routes) {
      for (const headers of [
        {},
        { authorization: "Bearer wrong-token" },
        { cookie: `${sessionCookie}=forged` },
      ]) {
        const response = await fetch(`${base}${route}`, { method, headers, redirect: "manual" });
        expect(response.status, `${method} ${route} ${JSON.stringify(headers)}`).toBe(401);
        await response.body?.cancel();
      }
    }
    expect(await store.getHeadVersion("math")).toBe(2);
  });

  it("serves every page with the Bearer token, and a state change needs no CSRF token only then", async () => {
    const bearer = { authorization: `Bearer ${token}` };
    for (const route of ["/", "/d/math", "/d/math/e/G3", "/d/math/review", `/runs/${seededRunId}`]) {
      const response = await fetch(`${base}${route}`, { headers: bearer });
      expect(response.status, route).toBe(200);
      const body = await response.text();
      expect(body).not.toContain("<script>window.__pwned");
      expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
    }
    const page = await (await fetch(`${base}/d/math/e/G3`, { headers: bearer })).text();
    expect(page).toContain("&lt;script&gt;window.__pwned = true&lt;/script&gt;&lt;img src=x onerror=");
    const approved = await fetch(`${base}/d/math/actions/approve`, {
      method: "POST",
      headers: { ...bearer, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ id: "G1", expectedHead: "2", note: "by script" }),
      redirect: "manual",
    });
    expect(approved.status).toBe(303);
    expect(await store.getHeadVersion("math")).toBe(3);
  });

  it("signs in with a form that sets an HttpOnly cookie; cookie sessions need the CSRF token and a same-site origin", async () => {
    const login = await fetch(`${base}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      body: new URLSearchParams({ token, next: "/d/math/review" }),
      redirect: "manual",
    });
    expect(login.status).toBe(303);
    expect(login.headers.get("location")).toBe("/d/math/review");
    const setCookie = login.headers.getSetCookie();
    const session = setCookie.find((cookie) => cookie.startsWith(`${sessionCookie}=`))!;
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Strict/);
    expect(session).not.toContain(token);
    const sessionPair = session.split(";")[0]!;

    const review = await fetch(`${base}/d/math/review`, { headers: { cookie: sessionPair } });
    expect(review.status).toBe(200);
    const csrfPair = review.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("tfgrpo_studio_csrf="))!
      .split(";")[0]!;
    const csrf = csrfPair.split("=")[1]!;
    const cookie = `${sessionPair}; ${csrfPair}`;
    const head = String(await store.getHeadVersion("math"));
    const post = (headers: Record<string, string>, fields: Record<string, string>) =>
      fetch(`${base}/d/math/actions/approve`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams({ id: "G6", expectedHead: head, ...fields }),
        redirect: "manual",
      });
    // No CSRF token, a wrong one, or the right one from another site's page: refused, nothing written.
    expect((await post({ origin: base }, {})).status).toBe(403);
    expect((await post({ origin: base }, { _csrf: "x".repeat(32) })).status).toBe(403);
    const crossSite = await post({ origin: "http://evil.example" }, { _csrf: csrf });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.text()).toBe("refused: a state-changing request from another site");
    expect((await store.getHead("math"))!.experiences.find((e) => e.id === "G6")!.status).toBe("candidate");
    // Same site with the token: applied.
    const ok = await post({ origin: base }, { _csrf: csrf });
    expect(ok.status).toBe(303);
    expect((await store.getHead("math"))!.experiences.find((e) => e.id === "G6")!.status).toBe("active");
  });
});

describe("a loopback studio", () => {
  it("needs no token but answers only to loopback Host names (no DNS rebinding)", async () => {
    await using local = await startStudio({ store, port: 0 });
    expect((await fetch(`${local.url}/d/math`)).status).toBe(200);
    // fetch will not send a foreign Host header; node:http sends what a rebound DNS name would.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = httpRequest(
        {
          host: "127.0.0.1",
          port: local.port,
          path: "/d/math",
          headers: { host: `attacker.example:${local.port}` },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode);
        },
      );
      request.on("error", reject);
      request.end();
    });
    expect(status).toBe(403);
  });
});
