import path from "node:path";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createStore, type Store } from "@tfgrpo/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHeadWatcher } from "./head-watcher.js";
import { parseLibraryQuery, selectEntries } from "./library-query.js";
import { createStudioApp, type StudioApp } from "./studio-app.js";
import { seedStudioLibrary } from "./testing/seed-library.js";

// The app over a real SQLite file, driven through its fetch handler (the browser tests cover the pages themselves).
let directory: TemporaryDirectory;
let store: Store;
let studio: StudioApp;
let cookie: string;
let csrf: string;
const origin = "http://127.0.0.1:4477";

beforeEach(async () => {
  directory = await temporaryDirectory("tfgrpo-studio-app-");
  store = await createStore(path.join(directory.path, "tfgrpo.db"));
  await seedStudioLibrary(store);
  studio = createStudioApp({ store });
  const first = await studio.app.request(`${origin}/`);
  cookie = first.headers.getSetCookie()[0]!.split(";")[0]!;
  csrf = cookie.split("=")[1]!;
});
afterEach(async () => {
  studio.close();
  await store.close();
  await directory[Symbol.asyncDispose]();
});

const post = (route: string, body: FormData | URLSearchParams) =>
  studio.app.request(`${origin}${route}`, { method: "POST", headers: { cookie, origin }, body });
/** The page a redirect leads to, with the message cookie the action set. */
async function follow(response: Response): Promise<string> {
  const flash = response.headers
    .getSetCookie()
    .find((c) => c.startsWith("tfgrpo_studio_flash="))!
    .split(";")[0]!;
  const next = await studio.app.request(`${origin}${response.headers.get("location")}`, {
    headers: { cookie: `${cookie}; ${flash}` },
  });
  return next.text();
}
const form = (fields: Record<string, string>) => new URLSearchParams({ _csrf: csrf, ...fields });

describe("studio app", () => {
  it("shows the domain's online learner: lease holder, canary and its counts, decisions (the status the CLI prints)", async () => {
    const empty = await (await studio.app.request(`${origin}/d/math/online`, { headers: { cookie } })).text();
    expect(empty).toContain("never taken");
    await store.acquireLearnerLease("math", {
      holder: "online-7:ab12",
      host: "box-1",
      pid: 4242,
      ttlMs: 60_000,
    });
    await store.saveLearnerState("math", "online-7:ab12", {
      format: 1,
      runId: "online-7",
      cursor: 37,
      observed: 37,
      reflections: 2,
      head: 1,
      trigger: { window: [true, false, true, true], sinceLast: 5, pending: false },
      deferred: null,
      canary: {
        version: 2,
        parent: 1,
        share: 0.3,
        startCursor: 30,
        startedAt: "2026-01-01T00:00:00.000Z",
        deadlineAt: "2026-01-01T01:00:00.000Z",
        outcomes: 4,
        headOutcomes: 9,
      },
      probation: null,
      decisions: [
        {
          at: 20,
          time: "2026-01-01T00:00:00.000Z",
          kind: "inconclusive",
          version: 2,
          decision: "inconclusive",
          reason: "inconclusive: no reports <by deadline>",
        },
      ],
    });
    const response = await studio.app.request(`${origin}/d/math/online`, { headers: { cookie } });
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain("pid 4242 on box-1");
    expect(page).toContain("4 canary and 9 head outcome(s)");
    expect(page).toContain("success 0.75");
    // Stored text is escaped.
    expect(page).toContain("no reports &lt;by deadline&gt;");
  });

  it("exports any version as JSON, plain or Markdown, and imports a file from the page as a new version", async () => {
    const json = await studio.app.request(`${origin}/d/math/export?format=json&v=1`, { headers: { cookie } });
    expect(json.headers.get("content-disposition")).toBe('attachment; filename="math-v1.json"');
    expect(await json.text()).toBe(await store.exportLibrary("math", { format: "json", version: 1 }));
    const plain = await studio.app.request(`${origin}/d/math/export?format=plain`, { headers: { cookie } });
    expect(JSON.parse(await plain.text())).toMatchObject({
      G0: "When a fraction appears, reduce it fully before comparing any values.",
    });
    const markdown = await studio.app.request(`${origin}/d/math/export?format=markdown`, {
      headers: { cookie },
    });
    expect(markdown.headers.get("content-type")).toContain("text/markdown");

    const upload = new FormData();
    upload.set("_csrf", csrf);
    upload.set("format", "auto");
    upload.set("status", "candidate");
    upload.set("note", "from the team wiki");
    upload.set("file", new File(['{"G0": "When a table is given, read its units first."}'], "wiki.json"));
    const imported = await post("/d/math/import", upload);
    expect(imported.status).toBe(303);
    expect(imported.headers.get("location")).toBe("/d/math/transfer");
    expect(await follow(imported)).toContain(
      '<p class="flash ok" role="status">Imported 1 entries from wiki.json',
    );
    const head = (await store.getHead("math"))!;
    expect(head.version).toBe(3);
    expect(
      head.experiences.find((e) => e.text === "When a table is given, read its units first.")?.status,
    ).toBe("candidate");

    const bad = new FormData();
    bad.set("_csrf", csrf);
    bad.set("file", new File(['{"G0": 5}'], "broken.json"));
    const refused = await post("/d/math/import", bad);
    expect(refused.status).toBe(303);
    const refusedPage = await follow(refused);
    expect(refusedPage).toContain(
      '<p class="flash error" role="alert">cannot import broken.json, nothing changed: broken.json: entry',
    );
    // The message is shown once: the next visit has none.
    expect(
      await (await studio.app.request(`${origin}/d/math/transfer`, { headers: { cookie } })).text(),
    ).not.toContain('class="flash');
    expect(await store.getHeadVersion("math")).toBe(3);
  });

  it("merges two entries through the curator; an over-long merged text is refused and shown again", async () => {
    const long = `When units appear, ${"keep them ".repeat(16)}`;
    const refused = await post(
      "/d/math/actions/merge",
      form({ ids: "G0 G6", text: long, expectedHead: "2" }),
    );
    expect(refused.status).toBe(422);
    const page = await refused.text();
    expect(page).toContain("merge of G0 and G6: the lesson has 35 words; the limit is 32");
    expect(page).toContain(long.trim());
    const merged = await post(
      "/d/math/actions/merge",
      form({
        ids: "G0, G6",
        text: "When fractions or probabilities appear, reduce fractions and check probabilities lie in [0, 1].",
        expectedHead: "2",
        note: "one lesson",
      }),
    );
    expect(merged.status).toBe(303);
    const head = (await store.getHead("math"))!.experiences;
    expect(head.find((e) => e.id === "G0")!.status).toBe("archived");
    expect(head.find((e) => e.id === "G6")!.status).toBe("archived");
    expect(head.find((e) => e.id === "G8")).toMatchObject({ status: "active", provenance: { version: 3 } });
    const diff = await (
      await studio.app.request(`${origin}/d/math/diff?from=2&to=3`, { headers: { cookie } })
    ).text();
    expect(diff).toContain('G0 + G6 → <a href="/d/math/e/G8">G8</a>');
  });

  it("refuses an unknown action, an oversized request, a stale head and a lifecycle move the curator forbids, writing nothing", async () => {
    expect((await post("/d/math/actions/delete-everything", form({ expectedHead: "2" }))).status).toBe(404);
    const huge = await post(
      "/d/math/actions/edit",
      form({ id: "G0", expectedHead: "2", text: "x".repeat(33 * 2 ** 20) }),
    );
    expect(huge.status).toBe(413);
    const stale = await post("/d/math/actions/approve", form({ id: "G1", expectedHead: "1" }));
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain(
      "the library changed, reload: math is now at v2 (this page showed v1)",
    );
    const archived = await post("/d/math/actions/approve", form({ id: "G2", expectedHead: "2" }));
    expect(archived.status).toBe(422);
    expect(await archived.text()).toContain("G2 is archived");
    expect(await store.getHeadVersion("math")).toBe(2);
  });
});

describe("credit on the pages", () => {
  const page = async (route: string) =>
    (await studio.app.request(`${origin}${route}`, { headers: { cookie } })).text();
  const cell = (markup: string) =>
    [
      ...markup.matchAll(
        /<span class="contrast contrast-(\w+)"[^>]*>([^<]*)<\/span>(?: <span class="meta">n = (\d+)<\/span>)?/g,
      ),
    ].map((match) => `${match[1]} ${match[2]}${match[3] ? ` n=${match[3]}` : ""}`);

  it("the library table shows each entry's contrast with its interval where mean Δ was", async () => {
    const markup = await page("/d/math");
    expect(markup).not.toContain("mean Δ");
    expect(markup).toContain("credit: contrast [interval]");
    // Rows by id: G0 G1 G3 G4 G5 G6 G7.
    expect(cell(markup)).toEqual([
      "helps +0.250 [+0.027, +0.473] n=6",
      "unclear +0.250 [-0.114, +0.614] n=3",
      "none no contrast yet",
      "hurts -0.250 [-0.473, -0.027] n=6",
      "none no contrast yet",
      "none no contrast yet",
      "none no contrast yet",
    ]);
  });

  it("the review queue shows each candidate's and conflict member's credit instead of mean Δ", async () => {
    const markup = await page("/d/math/review");
    expect(markup).not.toContain("mean Δ");
    const candidate = markup.slice(
      markup.indexOf('id="q-G1"'),
      markup.indexOf("</article>", markup.indexOf('id="q-G1"')),
    );
    expect(cell(candidate)).toEqual(["unclear +0.250 [-0.114, +0.614] n=3"]);
    expect(candidate).toContain('title="+0.250 [-0.114, +0.614] over 3 groups"');
    const group = markup.slice(markup.indexOf('id="g-cg-rounding"'));
    expect(cell(group.slice(0, group.indexOf("</article>")))).toEqual([
      "hurts -0.250 [-0.473, -0.027] n=6",
      "none no contrast yet",
    ]);
  });

  it("the entry page shows the credit and the credit by library version", async () => {
    const markup = await page("/d/math/e/G0");
    const [overall, ...byVersion] = cell(markup);
    expect(overall).toBe("helps +0.250 [+0.027, +0.473] n=6");
    // Four groups read v1's wording; the rewrite in v2 started the contrast again, so six groups on v2 are all of it.
    expect(byVersion).toEqual(["unclear +0.250 [-0.047, +0.547] n=4", "helps +0.250 [+0.027, +0.473] n=6"]);
    expect(markup).toMatch(
      /<table class="grid version-credit">.*<a href="\/d\/math\?v=1">v1<\/a>.*<a href="\/d\/math\?v=2">v2<\/a>/s,
    );
    const none = await page("/d/math/e/G5");
    expect(none).toContain('id="no-version-credit"');
    expect(cell(none)).toEqual(["none no contrast yet"]);
  });
});

describe("library table and head watcher", () => {
  it("filters by words and status and sorts with ties by id", async () => {
    const entries = (await store.getHead("math"))!.experiences;
    const ids = (params: Record<string, string>) =>
      selectEntries(entries, parseLibraryQuery(params)).map((row) => row.entry.id);
    expect(ids({})).toEqual(["G0", "G1", "G3", "G4", "G5", "G6", "G7"]);
    expect(ids({ status: "all" })).toHaveLength(8);
    expect(ids({ status: "archived" })).toEqual(["G2"]);
    expect(ids({ q: "ROUNDING half" })).toEqual(["G4", "G5"]);
    expect(ids({ q: "cg-rounding" })).toEqual(["G4", "G5"]);
    expect(ids({ sort: "shown", dir: "desc" }).slice(0, 3)).toEqual(["G0", "G4", "G5"]);
    expect(ids({ sort: "bogus", status: "bogus" })).toEqual(ids({}));
    // By credit: the two +0.250 estimates (ties by id), then the entries without a contrast, then G4 (-0.250).
    expect(ids({ sort: "contrast", dir: "desc" })).toEqual(["G0", "G1", "G3", "G5", "G6", "G7", "G4"]);
  });

  it("reports a head that moves, once", async () => {
    const watcher = createHeadWatcher(store, 60_000);
    const seen: string[] = [];
    const stop = watcher.subscribe((change) =>
      seen.push(`${change.domain}:${change.previous}->${change.head}`),
    );
    await watcher.poll();
    await store.applyOperations("math", [{ op: "keep", id: "G0", reason: "x" }], {
      parent: 2,
      state: "committed",
    });
    await watcher.poll();
    await watcher.poll();
    expect(seen).toEqual(["math:2->3"]);
    stop();
    watcher.close();
  });
});
