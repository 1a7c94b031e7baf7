import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createStore, type Store } from "@tfgrpo/store";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningStudio, startStudio } from "./start-studio.js";
import { seedStudioLibrary } from "./testing/seed-library.js";

// Real parts: a SQLite file, the studio on a real port, Debian's chromium driven by playwright-core (one launch).
const artifacts = fileURLToPath(new URL("../test-artifacts/", import.meta.url));
mkdirSync(artifacts, { recursive: true });

let browser: Browser;
let directory: TemporaryDirectory;
let store: Store;
let studio: RunningStudio;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: process.getuid?.() === 0 ? ["--no-sandbox"] : [],
  });
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  directory = await temporaryDirectory("tfgrpo-studio-");
  store = await createStore(path.join(directory.path, "tfgrpo.db"));
  await seedStudioLibrary(store);
  studio = await startStudio({
    store,
    port: 0,
    pollIntervalMs: 100,
    renderRunReport: async (runId) => `<!doctype html><h1>Report of ${runId}</h1>`,
  });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
});
afterEach(async () => {
  await context.close();
  await studio.close();
  await store.close();
  await directory[Symbol.asyncDispose]();
});

const headEntry = async (id: string) =>
  (await store.getHead("math"))!.experiences.find((entry) => entry.id === id)!;
const shot = (name: string) => page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });

describe("studio in a browser", () => {
  it("browses domains, searches and sorts a library, and shows an entry containing <script> as text", async () => {
    await page.goto(studio.url);
    const row = page.locator('tr[data-domain="math"]');
    await expect.poll(() => row.locator("td.head").textContent()).toBe("v2");
    const summary = (await store.listDomains()).find((domain) => domain.domain === "math")!;
    expect(await row.locator("td").nth(3).textContent()).toBe(String(summary.headCounts.active));
    expect(await row.textContent()).toContain("run-seeded-1");
    await row.getByRole("link", { name: "math" }).click();
    await expect.poll(() => page.locator("p.count").textContent()).toBe("7 of 8 entries");
    // The markup in G3 is text on the page: nothing ran, and the tags are visible.
    expect(await page.evaluate(() => (window as { __pwned?: boolean }).__pwned)).toBeUndefined();
    expect(await page.locator("tr", { hasText: "G3" }).locator("td.text").textContent()).toContain(
      "<script>window.__pwned = true</script>",
    );
    await page.getByRole("searchbox").fill("fraction");
    await expect.poll(() => page.locator("p.count").textContent()).toBe("1 of 8 entries");
    expect(new URL(page.url()).searchParams.get("q")).toBe("fraction");
    await page.getByRole("searchbox").fill("");
    await expect.poll(() => page.locator("p.count").textContent()).toBe("7 of 8 entries");
    await page.getByRole("link", { name: "shown" }).click();
    await page.getByRole("link", { name: "shown ▲" }).click();
    await expect
      .poll(() => page.locator("table.entries tbody tr td:first-child").first().textContent())
      .toBe("G0");
    await shot("library");
  });

  it("opens an entry's history: the run that made it, every operation with its reason, a word-level rewrite", async () => {
    await page.goto(`${studio.url}/d/math/e/G0`);
    const operations = page.locator("table.operations tbody tr");
    await expect.poll(() => operations.count()).toBe(2);
    expect(await operations.nth(0).textContent()).toContain("added");
    expect(await operations.nth(1).textContent()).toContain("clearer wording from step 1");
    expect(await operations.nth(1).locator("ins").allTextContents()).toEqual([
      "fully",
      "comparing any values.",
    ]);
    expect(await operations.nth(1).getByRole("link", { name: "run-seeded-1" }).count()).toBe(1);
    expect(await page.locator("table.history tbody tr").first().textContent()).toContain("new → active");
    // Its credit with the interval, and the same split by the library version the rollouts read.
    expect(await page.locator("dd.credit .contrast").textContent()).toBe("+0.250 [+0.027, +0.473]");
    expect(await page.locator("table.version-credit tbody tr").allTextContents()).toEqual([
      "v1+0.250 [-0.047, +0.547] n = 4",
      "v2+0.250 [+0.027, +0.473] n = 6",
    ]);
    await shot("entry");
    await page.goto(`${studio.url}/d/math/e/G2`);
    expect(await page.locator("table.history").textContent()).toContain("never selected in 20 versions");
    expect(await page.locator("form.edit-form").count()).toBe(0);
    await page.goto(`${studio.url}/runs/run-seeded-1`);
    expect(await page.locator("table.steps tbody tr").count()).toBe(1);
    expect(await page.locator("table.gates").textContent()).toContain("candidate 0.710 vs head 0.620");
    expect(await page.frameLocator("iframe.report").locator("h1").textContent()).toBe(
      "Report of run-seeded-1",
    );
  });

  it("diffs two versions: added, modified word by word, archived", async () => {
    await page.goto(`${studio.url}/d/math/versions`);
    await page.getByRole("link", { name: "diff to v1" }).click();
    expect(await page.locator("h1").textContent()).toBe("math: v1 → v2");
    expect(await page.locator("ul.added").textContent()).toContain("G7");
    expect(await page.locator("li.modified ins").allTextContents()).toEqual([
      "fully",
      "comparing any values.",
    ]);
    expect(await page.locator("li.modified del").allTextContents()).toEqual([
      "to lowest terms",
      "comparing.",
    ]);
    expect(await page.locator("ul.removed").textContent()).toContain("G2");
    await shot("diff");
  });

  it("approves a candidate with a note: a new committed version whose reason is the note", async () => {
    await page.goto(`${studio.url}/d/math/review`);
    const item = page.locator("#q-G1");
    // The candidate's credit is the contrast with its interval, not a mean Δ that is 0 for everything.
    expect(await item.locator(".contrast").textContent()).toBe("+0.250 [-0.114, +0.614]");
    expect(await item.locator(".contrast").getAttribute("title")).toBe(
      "+0.250 [-0.114, +0.614] over 3 groups",
    );
    await shot("review");
    await item.getByRole("textbox").fill("right on the three percent tasks I checked");
    await item.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => page.locator(".flash.ok").textContent()).toContain("Committed v3");
    const entry = await headEntry("G1");
    expect(entry.status).toBe("active");
    expect(entry.history.at(-1)).toMatchObject({
      version: 3,
      from: "candidate",
      to: "active",
      reason: "right on the three percent tasks I checked",
    });
    expect((await store.getVersionInfo("math", 3))!.message).toContain(
      "right on the three percent tasks I checked",
    );
    expect(await page.locator("#q-G1").count()).toBe(0);
  });

  it("edits a lesson: over the word limit is refused with a clear message and the draft kept; within it, committed", async () => {
    await page.goto(`${studio.url}/d/math/e/G0`);
    const long = `When a fraction appears, ${Array.from({ length: 36 }, (_, i) => `step${i}`).join(" ")}.`;
    await page.locator("#edit-text").fill(long);
    expect(await page.locator(".word-count").textContent()).toBe("40 / 32 words");
    await page.getByRole("button", { name: "Save as a new version" }).click();
    await expect
      .poll(() => page.locator(".flash.error").textContent())
      .toContain("G0: the lesson has 40 words; the limit is 32");
    expect(await page.locator("#edit-text").inputValue()).toBe(long);
    expect(await store.getHeadVersion("math")).toBe(2);
    await shot("edit-refused");
    await page.locator("#edit-text").fill("When a fraction appears, reduce it to lowest terms first.");
    await page.locator("#edit-note").fill("shorter");
    await page.getByRole("button", { name: "Save as a new version" }).click();
    await expect.poll(() => page.locator(".flash.ok").textContent()).toContain("Committed v3");
    expect((await headEntry("G0")).text).toBe("When a fraction appears, reduce it to lowest terms first.");
    expect(await page.locator("table.operations tbody tr").last().textContent()).toContain("shorter");
  });

  it("resolves a conflict group for the entry a person keeps", async () => {
    await page.goto(`${studio.url}/d/math/review`);
    const group = page.locator('[data-group="cg-rounding"]');
    await group.getByRole("textbox").fill("the grader rounds half up");
    await group.getByRole("button", { name: "Keep G4, archive the others" }).click();
    await expect.poll(() => page.locator(".flash.ok").textContent()).toContain("Committed v3");
    const kept = await headEntry("G4");
    expect(kept.status).toBe("active");
    expect(kept.conflictGroup).toBeUndefined();
    const dropped = await headEntry("G5");
    expect(dropped.status).toBe("archived");
    expect(dropped.history.at(-1)!.reason).toContain("the grader rounds half up");
    expect(await page.locator('[data-group="cg-rounding"]').count()).toBe(0);
  });

  it("rolls back to an older version", async () => {
    await page.goto(`${studio.url}/d/math/versions`);
    const row = page.locator("#v1");
    await row.getByRole("textbox").fill("step 1 made things worse");
    await row.getByRole("button", { name: "Roll back to v1" }).click();
    await expect
      .poll(() => page.locator(".flash.ok").textContent())
      .toContain("Committed v3: rolled back to v1");
    expect(await store.getHeadVersion("math")).toBe(3);
    expect((await headEntry("G0")).text).toBe(
      "When a fraction appears, reduce it to lowest terms before comparing.",
    );
    expect((await headEntry("G2")).status).toBe("active");
    expect((await store.getVersionInfo("math", 3))!.message).toContain("step 1 made things worse");
  });

  it("works the review queue with the keyboard only", async () => {
    await page.goto(`${studio.url}/d/math/review`);
    await page.keyboard.press("j");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("q-G1");
    await page.keyboard.press("j");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("q-G6");
    await page.keyboard.press("j");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("q-G7");
    await page.keyboard.press("k");
    await shot("review-queue");
    // G6: approve with the a key.
    await Promise.all([page.waitForURL(/\/review/), page.keyboard.press("a")]);
    await expect.poll(() => page.locator(".flash.ok").textContent()).toContain("Committed v3");
    expect((await headEntry("G6")).status).toBe("active");
    // The reloaded queue's key handler is attached once the page has loaded: a key pressed before is lost.
    await page.waitForLoadState("load");
    // G7: reach its reject button with Tab alone and press Enter.
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("q-G7");
    await page.keyboard.press("Tab"); // the G7 link
    await page.keyboard.press("Tab"); // the note
    await page.keyboard.type("duplicate of G0");
    await page.keyboard.press("Tab"); // Approve
    await page.keyboard.press("Tab"); // Reject
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Reject");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator(".flash.ok").textContent()).toContain("Committed v4");
    const rejected = await headEntry("G7");
    expect(rejected.status).toBe("archived");
    expect(rejected.history.at(-1)!.reason).toBe("duplicate of G0");
  });

  it("two sessions edit one entry: the second is told the library changed, and nothing is lost", async () => {
    const other = await browser.newContext();
    try {
      const second = await other.newPage();
      await page.goto(`${studio.url}/d/math/e/G0`);
      await second.goto(`${studio.url}/d/math/e/G0`);
      // Both start editing; the first saves while the second is still typing.
      const draft = "When fractions appear, bring them to lowest terms before any comparison.";
      await second.locator("#edit-text").fill(draft);
      await page
        .locator("#edit-text")
        .fill("When a fraction appears, reduce it before comparing it with another.");
      await page.getByRole("button", { name: "Save as a new version" }).click();
      await expect.poll(() => page.locator(".flash.ok").count()).toBe(1);
      // The open draft is left alone; the page says the library moved.
      await expect
        .poll(() => second.locator("#live-notice").textContent(), { timeout: 10_000 })
        .toContain("The library changed: math is now at v3");
      expect(await second.locator("#edit-text").inputValue()).toBe(draft);
      const [response] = await Promise.all([
        second.waitForResponse((r) => r.request().method() === "POST"),
        second.getByRole("button", { name: "Save as a new version" }).click(),
      ]);
      expect(response.status()).toBe(409);
      await expect
        .poll(() => second.locator(".flash.error").textContent())
        .toContain(
          "the library changed, reload: math is now at v3 (this page showed v2); nothing was written",
        );
      expect(await second.locator("#edit-text").inputValue()).toBe(draft);
      await second.screenshot({ path: path.join(artifacts, "edit-conflict.png"), fullPage: true });
      expect(await store.getHeadVersion("math")).toBe(3);
      expect((await headEntry("G0")).text).toBe(
        "When a fraction appears, reduce it before comparing it with another.",
      );
    } finally {
      await other.close();
    }
  });

  it("updates an open page without a reload when a run commits a version", async () => {
    await page.goto(`${studio.url}/d/math`);
    await page.evaluate(() => {
      (window as { __sameDocument?: boolean }).__sameDocument = true;
    });
    // Another connection to the same database file, as a learning run in another process would commit.
    const run = await createStore(path.join(directory.path, "tfgrpo.db"));
    try {
      await run.applyOperations(
        "math",
        [
          {
            op: "add",
            text: "When a square root appears, check both signs.",
            status: "candidate",
            reason: "run",
          },
        ],
        { parent: 2, state: "committed", runId: "run-live" },
      );
    } finally {
      await run.close();
    }
    await expect
      .poll(() => page.locator("#live-notice").textContent(), { timeout: 10_000 })
      .toContain("math is now at v3");
    expect(await page.locator("table.entries").textContent()).toContain("When a square root appears");
    expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });

  it("refuses a form posted from another site", async () => {
    await page.goto(`${studio.url}/d/math/review`);
    const evil: Server = createServer((_, response) => {
      response.setHeader("Content-Type", "text/html");
      response.end(`<form id="f" method="post" action="${studio.url}/d/math/actions/approve">
<input name="id" value="G1"><input name="expectedHead" value="2"><input name="_csrf" value="guessed"></form>
<script>document.getElementById("f").submit()</script>`);
    });
    await new Promise<void>((resolve) => evil.listen(0, "127.0.0.1", resolve));
    try {
      const attacker = await context.newPage();
      const [response] = await Promise.all([
        attacker.waitForResponse((r) => r.url().startsWith(studio.url)),
        attacker.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`),
      ]);
      expect(response.status()).toBe(403);
      expect(await response.text()).toContain("refused");
      expect(await store.getHeadVersion("math")).toBe(2);
      expect((await headEntry("G1")).status).toBe("candidate");
    } finally {
      evil.close();
    }
  });
});
