import {
  type CuratorConfigInput,
  createManualCurator,
  type ManualAction,
  type ManualCurator,
  resolveCuratorConfig,
} from "@tfgrpo/curator";
import { experienceStatusSchema, TfgrpoError } from "@tfgrpo/protocol";
import type { LibraryFormat } from "@tfgrpo/store";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { deleteCookie } from "hono/cookie";
import { streamSSE } from "hono/streaming";
import { setFlash, takeFlash } from "./flash-cookie.js";
import { type GuardVariables, guard } from "./guard.js";
import { createHeadWatcher, type HeadWatcher } from "./head-watcher.js";
import type { Html } from "./html.js";
import { createPageLoaders } from "./page-loaders.js";
import type { Flash } from "./pages/layout.js";
import { sessionCookie } from "./security.js";
import { loadStudioAssets } from "./studio-assets.js";
import type { StudioStore } from "./studio-store.js";

export interface CreateStudioAppOptions {
  store: StudioStore;
  /** The curator every action goes through; defaults to a manual curator over `store` with `curatorConfig`. */
  curator?: ManualCurator;
  curatorConfig?: CuratorConfigInput;
  /** A run's self-contained HTML report (the runner's renderer); without it, run pages show no report. */
  renderRunReport?: (runId: string) => Promise<string>;
  /** TFGRPO_STUDIO_TOKEN; `startStudio` requires it beyond loopback. */
  token?: string | undefined;
  secureCookies?: boolean;
  /** How often open pages' heads are checked against the store. */
  pollIntervalMs?: number;
}

export interface StudioApp {
  readonly app: Hono<{ Variables: GuardVariables }>;
  fetch(request: Request): Promise<Response>;
  readonly watcher: HeadWatcher;
  close(): void;
}

const maxRequestBytes = 32 * 1024 * 1024;
const domainPattern = "[a-z][a-z0-9_-]{0,63}";
const returnPattern = new RegExp(`^/d/${domainPattern}/(review|versions|e/G\\d+)$`);

function statusOf(error: TfgrpoError): 404 | 409 | 422 | 507 {
  if (error.code === "not_found") return 404;
  if (error.code === "conflict") return 409;
  if (error.code === "storage_error") return 507;
  return 422;
}

/**
 * The studio: server-rendered pages (htmx for search and live refresh) over one workspace store. Reading pages show
 * domains, versions, entries with their history, diffs and runs; every change is an action through the curator that
 * commits a new version with the person's note as its reason.
 */
export function createStudioApp(options: CreateStudioAppOptions): StudioApp {
  const { store } = options;
  const config = resolveCuratorConfig(options.curatorConfig);
  const curator = options.curator ?? createManualCurator({ store, config: options.curatorConfig ?? {} });
  const pages = createPageLoaders(store, config, () => options.renderRunReport !== undefined);
  const watcher = createHeadWatcher(store, options.pollIntervalMs ?? 1000);
  const assets = loadStudioAssets();
  const app = new Hono<{ Variables: GuardVariables }>();

  app.onError((error, c) => {
    if (TfgrpoError.isInstance(error)) return c.text(error.message, statusOf(error));
    return c.text(`internal error: ${error.message.split("\n")[0]}`, 500);
  });
  const secureCookies = options.secureCookies ?? false;
  // Uploads are read whole (a library file): a bound keeps one request from filling the memory.
  app.use(
    "*",
    bodyLimit({
      maxSize: maxRequestBytes,
      onError: (c) => c.text("refused: the request is over 32 MiB", 413),
    }),
  );
  app.use("*", guard({ token: options.token, secureCookies }));
  app.get("/assets/:name", (c) => {
    const asset = assets[c.req.param("name")];
    if (!asset) return c.text("not found", 404);
    return c.body(asset.body, 200, { "Content-Type": asset.type, "Cache-Control": "no-cache" });
  });
  // Through the context, so the guard's headers and cookies go with the page.
  const page = (c: Context, body: Html, status: 200 | 404 | 409 | 422 = 200) => c.html(body.value, status);

  app.get("/", async (c) => page(c, await pages.domains({ csrf: c.get("csrf"), flash: takeFlash(c) })));
  app.get(`/d/:domain{${domainPattern}}`, async (c) =>
    page(
      c,
      await pages.library(c.req.param("domain"), c.req.query(), {
        csrf: c.get("csrf"),
        flash: takeFlash(c),
      }),
    ),
  );
  app.get(`/d/:domain{${domainPattern}}/e/:id{G\\d+}`, async (c) =>
    page(
      c,
      await pages.entry(c.req.param("domain"), c.req.param("id"), {
        csrf: c.get("csrf"),
        flash: takeFlash(c),
      }),
    ),
  );
  app.get(`/d/:domain{${domainPattern}}/diff`, async (c) =>
    page(
      c,
      await pages.diff(c.req.param("domain"), c.req.query("from"), c.req.query("to"), {
        csrf: c.get("csrf"),
      }),
    ),
  );
  app.get(`/d/:domain{${domainPattern}}/versions`, async (c) =>
    page(c, await pages.versions(c.req.param("domain"), { csrf: c.get("csrf"), flash: takeFlash(c) })),
  );
  app.get(`/d/:domain{${domainPattern}}/online`, async (c) =>
    page(c, await pages.online(c.req.param("domain"), { csrf: c.get("csrf") })),
  );
  app.get(`/d/:domain{${domainPattern}}/review`, async (c) =>
    page(c, await pages.review(c.req.param("domain"), { csrf: c.get("csrf"), flash: takeFlash(c) })),
  );
  app.get(`/d/:domain{${domainPattern}}/transfer`, async (c) =>
    page(c, await pages.transfer(c.req.param("domain"), { csrf: c.get("csrf"), flash: takeFlash(c) })),
  );
  app.get(`/d/:domain{${domainPattern}}/export`, async (c) => {
    const domain = c.req.param("domain");
    const format =
      (["json", "plain", "markdown"] as const).find((f) => f === c.req.query("format")) ?? "json";
    const v = c.req.query("v");
    const text = await store.exportLibrary(domain, {
      format,
      ...(v && /^\d+$/.test(v) ? { version: Number(v) } : {}),
    });
    const extension = format === "markdown" ? "md" : "json";
    return c.body(text, 200, {
      "Content-Type":
        format === "markdown" ? "text/markdown; charset=utf-8" : "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${domain}${v ? `-v${v}` : ""}.${format === "plain" ? "plain." : ""}${extension}"`,
    });
  });
  app.post(`/d/:domain{${domainPattern}}/import`, async (c) => {
    const domain = c.req.param("domain");
    const form = await c.req.parseBody();
    const file = form.file;
    const redirect = (flash: Flash) => {
      setFlash(c, flash, secureCookies);
      return c.redirect(`/d/${domain}/transfer`, 303);
    };
    if (!(file instanceof File) || file.size === 0)
      return redirect({ kind: "error", text: "choose a library file to import" });
    const format = String(form.format ?? "auto");
    const status = experienceStatusSchema.safeParse(form.status);
    try {
      const result = await store.importLibrary(domain, {
        text: await file.text(),
        file: file.name,
        format: (["json", "plain", "markdown"].includes(format) ? format : "auto") as LibraryFormat | "auto",
        defaultStatus: status.success ? status.data : "candidate",
        message: `studio import of ${file.name}${form.note ? `: ${String(form.note)}` : ""}`,
      });
      watcher.poll().catch(() => {});
      return redirect({
        kind: "ok",
        text: `Imported ${result.entries} entries from ${file.name} (${result.format}) as v${result.version.version}.`,
      });
    } catch (error) {
      if (!TfgrpoError.isInstance(error)) throw error;
      return redirect({ kind: "error", text: error.message });
    }
  });
  app.post(`/d/:domain{${domainPattern}}/actions/:kind`, async (c) => {
    const domain = c.req.param("domain");
    const kind = c.req.param("kind");
    const form = await c.req.parseBody();
    const field = (name: string) => (typeof form[name] === "string" ? (form[name] as string) : "");
    const back =
      returnPattern.test(field("return")) && field("return").startsWith(`/d/${domain}/`)
        ? field("return")
        : `/d/${domain}/review`;
    const headField = field("expectedHead");
    const csrf = c.get("csrf");
    try {
      if (!/^\d*$/.test(headField))
        throw new TfgrpoError("invalid_input", `expectedHead: "${headField}" is not a version`);
      const request = {
        domain,
        expectedHead: headField === "" ? null : Number(headField),
        note: field("note"),
        author: "studio",
      };
      let text: string;
      if (kind === "rollback") {
        const toVersion = Number(field("toVersion"));
        if (!Number.isInteger(toVersion))
          throw new TfgrpoError("invalid_input", "toVersion: not a version number");
        const version = await curator.rollback({ ...request, toVersion });
        text = `Committed v${version.version}: rolled back to v${toVersion}.`;
      } else {
        const action = actionOf(kind, field);
        const result = await curator.apply({ ...request, action });
        text = `Committed v${result.version.version}: ${result.version.message}.${result.notes.length ? ` Curator: ${result.notes.join("; ")}` : ""}`;
      }
      watcher.poll().catch(() => {});
      setFlash(c, { kind: "ok", text }, secureCookies);
      return c.redirect(back, 303);
    } catch (error) {
      if (!TfgrpoError.isInstance(error)) throw error;
      const flash: Flash = { kind: "error", text: error.message };
      const status = statusOf(error) === 404 ? 404 : statusOf(error) === 409 ? 409 : 422;
      // The page is shown again with what the person typed, so nothing they wrote is lost.
      const entryMatch = /\/e\/(G\d+)$/.exec(back);
      const body = entryMatch
        ? await pages.entry(domain, entryMatch[1]!, { csrf, flash, draft: field("text") || undefined })
        : back.endsWith("/versions")
          ? await pages.versions(domain, { csrf, flash })
          : await pages.review(domain, {
              csrf,
              flash,
              ...(kind === "merge" ? { mergeDraft: { ids: field("ids"), text: field("text") } } : {}),
            });
      return page(c, body, status);
    }
  });
  app.post("/logout", (c) => {
    deleteCookie(c, sessionCookie, { path: "/" });
    return c.redirect("/", 303);
  });
  app.get("/runs", async (c) => page(c, await pages.runs({ csrf: c.get("csrf") })));
  app.get("/runs/:run", async (c) => page(c, await pages.run(c.req.param("run"), { csrf: c.get("csrf") })));
  app.get("/runs/:run/report", async (c) => {
    if (!options.renderRunReport) return c.text("reports are not available in this studio", 404);
    const run = await store.getRun(c.req.param("run"));
    if (!run) return c.text("no such run", 404);
    const report = await options.renderRunReport(run.id);
    // The report is the runner's self-contained page: shown sandboxed, with its own inline styles only.
    return c.body(report, 200, {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy":
        "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'",
    });
  });
  app.get("/events", (c) =>
    streamSSE(c, async (stream) => {
      const domain = c.req.query("domain");
      const seen = c.req.query("head");
      const queue: string[] = [];
      let wake: (() => void) | null = null;
      const unsubscribe = watcher.subscribe((change) => {
        queue.push(JSON.stringify(change));
        wake?.();
      });
      stream.onAbort(() => {
        unsubscribe();
        wake?.();
      });
      await watcher.poll().catch(() => []);
      // A commit between the page's render and this connection is reported at once.
      if (domain && seen !== undefined) {
        const head = watcher.headOf(domain);
        if (head !== undefined && String(head ?? "") !== seen)
          queue.push(JSON.stringify({ domain, head, previous: seen === "" ? null : Number(seen) }));
      }
      await stream.writeSSE({ event: "ready", data: "{}" });
      while (!stream.aborted) {
        while (queue.length > 0) await stream.writeSSE({ event: "head", data: queue.shift()! });
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 15_000).unref?.();
        });
        wake = null;
        if (!stream.aborted && queue.length === 0) await stream.writeSSE({ event: "ping", data: "{}" });
      }
      unsubscribe();
    }),
  );

  return {
    app,
    fetch: (request) => Promise.resolve(app.fetch(request)),
    watcher,
    close: () => watcher.close(),
  };
}

function actionOf(kind: string, field: (name: string) => string): ManualAction {
  switch (kind) {
    case "approve":
    case "reject":
      return { kind, id: field("id") };
    case "edit":
      return { kind, id: field("id"), text: field("text") };
    case "merge":
      return {
        kind,
        ids: field("ids")
          .split(/[\s,]+/)
          .filter(Boolean),
        text: field("text"),
      };
    case "resolve":
      return { kind: "resolve-conflict", group: field("group"), keep: field("keep") || null };
    default:
      throw new TfgrpoError(
        "not_found",
        `no action "${kind}" (approve, reject, edit, merge, resolve, rollback)`,
      );
  }
}
