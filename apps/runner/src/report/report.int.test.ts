import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { StepRecord } from "../learn/step-record.js";
import { bootstrapMean } from "../metrics/bootstrap.js";
import { renderReport } from "./render-report.js";
import type { ReportData } from "./report-data.js";

const usage = (calls: number, cost: number) => ({
  calls,
  inputTokens: calls * 900,
  cachedInputTokens: calls * 300,
  outputTokens: calls * 120,
  costUsd: cost,
  latencyMs: calls * 40,
});

function step(stepNumber: number, decision: StepRecord["decision"], score: number): StepRecord {
  return {
    epoch: stepNumber,
    step: stepNumber,
    tasks: 8,
    rollouts: 40,
    trainReward: 0.3 + stepNumber * 0.1,
    groups: 8,
    skippedGroups: 2,
    proposals: 9,
    operations: 4,
    headBefore: stepNumber - 1 || null,
    candidateVersion: stepNumber,
    headAfter: decision === "commit" ? stepNumber : stepNumber - 1,
    librarySize: 3 * stepNumber,
    libraryStates: { candidate: 2, active: 3 * stepNumber - 2, probation: 1, archived: stepNumber },
    candidateScore: score,
    headScore: score - 0.05,
    baselineScore: 0.3,
    decision,
    gateReason: decision === "commit" ? "better by 0.050 >= margin 0.02" : "worse than head",
    meanToolCalls: 2.5 - stepNumber * 0.2,
    meanTokens: 2400 + stepNumber * 100,
    usageByRole: { actor: usage(40 * stepNumber, 0.01 * stepNumber) },
  };
}

// Lifecycle reasons as the curator writes them: the contrast with its interval and groups.
const promotedReason =
  "promoted: safe: contrast +0.240 [+0.120, +0.360] over 9 groups; ranks 1 within the active budget";
const demotedReason = "hurts: contrast -0.250 [-0.423, -0.077] over 8 groups (upper bound below -0.100)";

const data: ReportData = {
  run: {
    id: "run-report-test",
    kind: "learn",
    domain: "math",
    status: "finished",
    config: { simulated: true },
    startedAt: "2026-11-30T06:00:00.000Z",
    finishedAt: "2026-11-30T06:05:00.000Z",
  },
  steps: [step(1, "commit", 0.5), step(2, "reject", 0.45), step(3, "commit", 0.65)],
  evaluations: [
    {
      id: "eval-1",
      title: "Held-out evaluation <test.jsonl>",
      data: "test.jsonl",
      k: 4,
      createdAt: "2026-11-30T06:05:00.000Z",
      rows: ["none", "math@v3"].map((label, i) => ({
        label,
        tasks: 20,
        k: 4,
        meanAtK: bootstrapMean(Array.from({ length: 20 }, (_, t) => ((t + i * 7) % 3 === 0 ? 1 : 0.25))),
        passAtK: bootstrapMean(Array.from({ length: 20 }, (_, t) => (t % 2 === 0 || i === 1 ? 1 : 0))),
        meanToolCalls: 2 - i * 0.4,
        meanTurns: 3,
        toolErrorRate: 0.05,
        adherence: i === 0 ? null : 0.6,
        tokensPerTask: 9000,
        costPerTask: 0.002,
        deltaVsReference: i === 0 ? null : bootstrapMean([0.1, 0.2, 0.3, 0, 0.25]),
      })),
    },
  ],
  versions: [],
  library: {
    version: 3,
    experiences: [
      {
        id: "G0",
        domain: "math",
        text: "When counting integers in a closed range, include both endpoints <b>not bold</b>.",
        status: "active",
        // Nine groups with differences (shown - withheld) 0.24 on average: an entry that helps.
        stats: {
          shown: 40,
          success: 31,
          sumDelta: 6.2,
          lastUsedVersion: 3,
          contrast: { n: 9, sum: 2.16, sumSquares: 0.6 },
        },
        provenance: { runId: "run-report-test", version: 1, fromOps: ["P1"] },
        history: [
          { at: "2026-11-30T06:01:00.000Z", version: 1, from: null, to: "candidate", reason: "added" },
          {
            at: "2026-11-30T06:03:00.000Z",
            version: 3,
            from: "candidate",
            to: "active",
            reason: promotedReason,
          },
        ],
        createdAt: "2026-11-30T06:01:00.000Z",
        updatedAt: "2026-11-30T06:03:00.000Z",
      },
      {
        id: "G1",
        domain: "math",
        text: "Take the plain average of the group means; the group sizes do not matter.",
        status: "probation",
        // Eight groups, -0.25 on average: an entry that hurts.
        stats: {
          shown: 30,
          success: 9,
          sumDelta: 0,
          lastUsedVersion: 3,
          contrast: { n: 8, sum: -2, sumSquares: 0.9 },
        },
        provenance: { runId: "run-report-test", version: 1, fromOps: ["P2"] },
        history: [
          { at: "2026-11-30T06:01:00.000Z", version: 1, from: null, to: "active", reason: "added" },
          {
            at: "2026-11-30T06:03:00.000Z",
            version: 3,
            from: "active",
            to: "probation",
            reason: demotedReason,
          },
        ],
        createdAt: "2026-11-30T06:01:00.000Z",
        updatedAt: "2026-11-30T06:03:00.000Z",
      },
      {
        id: "G2",
        domain: "math",
        text: "When a table is given, read its units first.",
        status: "candidate",
        stats: { shown: 0, success: 0, sumDelta: 0, lastUsedVersion: null },
        provenance: { runId: "run-report-test", version: 3, fromOps: ["P3"] },
        history: [
          { at: "2026-11-30T06:03:00.000Z", version: 3, from: null, to: "candidate", reason: "added" },
        ],
        createdAt: "2026-11-30T06:03:00.000Z",
        updatedAt: "2026-11-30T06:03:00.000Z",
      },
    ],
  },
  events: {
    rejections: [
      {
        version: 2,
        parent: 1,
        candidateScore: 0.45,
        headScore: 0.5,
        margin: 0.02,
        tasks: 30,
        stage: "full",
        reason: "worse than head",
      },
    ],
    promotions: [
      {
        id: "G0",
        text: "When counting integers in a closed range, include both endpoints <b>not bold</b>.",
        version: 3,
        from: "candidate",
        to: "active",
        reason: promotedReason,
      },
    ],
    demotions: [
      {
        id: "G1",
        text: "Take the plain average of the group means; the group sizes do not matter.",
        version: 3,
        from: "active",
        to: "probation",
        reason: demotedReason,
      },
    ],
  },
  usage: {
    runId: "run-report-test",
    total: usage(150, 0.05),
    byRole: { actor: usage(120, 0.03), critic: usage(20, 0.015), curator: usage(10, 0.005) },
    byModel: {},
  },
  lessonCosts: [
    {
      step: 1,
      criticUsd: 0.015,
      curatorUsd: 0.005,
      committedVersion: 2,
      proposals: [{ proposalId: "p1", groupId: "g1", op: "add", costUsd: 0.015 }],
      entries: [{ id: "G0", op: "add", costUsd: 0.02 }],
      droppedUsd: 0,
    },
  ],
  simulated: true,
  generatedAt: "2026-11-30T06:05:01.000Z",
};

describe("run report", () => {
  it("renders in headless Chromium with every chart, no console errors and no network", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-report-"));
    const file = path.join(dir, "report.html");
    await writeFile(file, renderReport(data));
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      const requests: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
      });
      page.on("pageerror", (error) => problems.push(error.message));
      page.on("request", (request) => requests.push(request.url()));
      await page.goto(`file://${file}`);
      expect(await page.title()).toContain("SIMULATED");
      expect(await page.locator("#simulated-banner").isVisible()).toBe(true);
      // Learning curve: 4 series, a point per step for train reward, gate markers for commits and rejects.
      expect(await page.locator("#learning-curves svg .series").count()).toBe(4);
      expect(
        await page.locator('#learning-curves svg .series[data-series="train reward"] circle').count(),
      ).toBe(3);
      expect(await page.locator("#learning-curves svg .marker").count()).toBe(3);
      expect(await page.locator("#library-chart svg rect.bar").count()).toBeGreaterThanOrEqual(9);
      expect(await page.locator("#behaviour-charts svg").count()).toBe(2);
      expect(await page.locator("#cost-chart svg rect.bar").count()).toBe(3);
      // What each lesson cost, beside its credit.
      expect(await page.locator("#lesson-costs tr").count()).toBe(2);
      expect(await page.locator("#lesson-costs").textContent()).toContain("$0.020");
      expect(await page.locator("#lesson-costs td.contrast").textContent()).toBe(
        "+0.240 [+0.120, +0.360] n = 9",
      );
      expect(await page.locator(".evaluation-table tr").count()).toBe(3);
      expect(await page.locator("#step-table tr").count()).toBe(4);
      expect(await page.locator("#library-table tr.experience").count()).toBe(3);
      // Each entry's credit: its contrast with the interval and n as text, and an interval bar on a shared axis.
      const row = (id: string) => page.locator("#library-table tr.experience", { hasText: id });
      const text = (id: string) => row(id).locator("td.contrast > span").allTextContents();
      expect(await text("G0")).toEqual(["+0.240 [+0.120, +0.360]", "n = 9"]);
      expect(await text("G1")).toEqual(["-0.250 [-0.423, -0.077]", "n = 8"]);
      expect(await row("G0").locator("svg.interval-bar title").textContent()).toBe(
        "+0.240 [+0.120, +0.360] over 9 groups",
      );
      expect(await row("G2").locator("td.contrast").textContent()).toBe("no contrast yet");
      expect(await page.locator("#library-table svg.interval-bar").count()).toBe(2);
      expect(await row("G2").locator("svg").count()).toBe(0);
      // The bar of the entry that helps lies right of zero, the one that hurts left of it.
      const bar = (id: string) =>
        row(id)
          .locator("svg.interval-bar")
          .evaluate((svg) => {
            const x = (selector: string, attribute: string) =>
              Number(svg.querySelector(selector)!.getAttribute(attribute));
            return {
              zero: x("line.zero", "x1"),
              lower: x("line.interval", "x1"),
              upper: x("line.interval", "x2"),
              estimate: x("circle.estimate", "cx"),
              width: svg.getBoundingClientRect().width,
            };
          });
      const helps = await bar("G0");
      const hurts = await bar("G1");
      expect(helps.zero).toBeLessThan(helps.lower);
      expect(helps.lower).toBeLessThan(helps.estimate);
      expect(helps.estimate).toBeLessThan(helps.upper);
      expect(hurts.upper).toBeLessThan(hurts.zero);
      expect(hurts.lower).toBeLessThan(hurts.estimate);
      // One axis for the table: equal contrasts sit at equal places, so the two zeros coincide.
      expect(hurts.zero).toBe(helps.zero);
      expect(helps.width).toBeGreaterThan(50);
      expect(await page.locator("body").textContent()).not.toContain("mean Δ");
      // The lifecycle moves, promotions and demotions, each with the numbers in its reason.
      expect(await page.locator("#learning-events li").allTextContents()).toEqual([
        expect.stringMatching(/^gate rejected v2 \(parent v1\): candidate 0\.450 vs head 0\.500/),
      ]);
      const moves = page.locator("#lifecycle-moves tr.move");
      expect(await moves.count()).toBe(2);
      expect(await moves.nth(0).locator("td").allTextContents()).toEqual([
        "v3",
        "G0",
        "promoted",
        "candidate → active",
        promotedReason,
        "When counting integers in a closed range, include both endpoints <b>not bold</b>.",
      ]);
      expect(await moves.nth(1).locator("td").nth(2).textContent()).toBe("demoted");
      expect(await moves.nth(1).locator("td").nth(4).textContent()).toBe(demotedReason);
      expect(await page.locator("#lifecycle-moves b").count()).toBe(0);
      // Text from the store is escaped, never interpreted as markup.
      expect(await page.locator("#library-table b").count()).toBe(0);
      expect(await page.locator("#library-table").innerText()).toContain("<b>not bold</b>");
      // Every chart has a real size (rendered, not collapsed).
      const sizes = await page
        .locator("svg.chart")
        .evaluateAll((nodes) => nodes.map((n) => (n as SVGSVGElement).getBoundingClientRect().width));
      expect(sizes.length).toBe(6);
      expect(sizes.every((w) => w > 100)).toBe(true);
      await page.screenshot({ path: path.join(dir, "report.png"), fullPage: true });
      expect(problems).toEqual([]);
      expect(requests.filter((url) => !url.startsWith("file://"))).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
