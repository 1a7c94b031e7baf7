import { TfgrpoError } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import type { StoredEvaluation } from "../report/report-data.js";
import type { LibraryEvaluation } from "./evaluate-libraries.js";
import {
  describeGroupGains,
  renderEvaluationGroups,
  renderEvaluationTable,
} from "./render-evaluation-table.js";
import { resolveGroupBy, summarizeEvaluation, summarizeGroups } from "./summarize-evaluation.js";

// Four tasks, two per family split, k = 4; rewards by hand.
const tasks = [
  { id: "t1", meta: { familySplit: "in-family", family: "a" } },
  { id: "t2", meta: { familySplit: "in-family", family: "b" } },
  { id: "t3", meta: { familySplit: "out-of-family", family: "c" } },
  { id: "t4", meta: { familySplit: "out-of-family", family: "c" } },
  { id: "t5", meta: { family: "d" } },
];

function library(label: string, rewards: Record<string, number[]>): LibraryEvaluation {
  return {
    label,
    library: label === "none" ? null : { domain: "math", version: 1 },
    tasks: Object.entries(rewards).map(([taskId, r]) => ({
      taskId,
      rewards: r,
      taskLevelRewards: r,
      infrastructureFailures: 0,
      trajectoryIds: [],
    })),
  };
}

const none = library("none", {
  t1: [0, 0, 1, 1],
  t2: [0, 0, 0, 0],
  t3: [1, 0, 0, 0],
  t4: [0, 0, 0, 0],
  t5: [1, 1, 1, 1],
});
const learned = library("math@v1", {
  t1: [1, 1, 1, 1],
  t2: [1, 1, 1, 0],
  t3: [1, 0, 0, 0],
  t4: [0, 0, 0, 0],
  t5: [1, 1, 1, 1],
});

describe("--group-by", () => {
  it("reports Mean@k per library and the paired Δ vs the first library within each group", () => {
    const breakdown = summarizeGroups([none, learned], tasks, "familySplit", { seed: 5 });
    expect(breakdown.field).toBe("familySplit");
    expect(breakdown.groups.map((g) => [g.value, g.tasks])).toEqual([
      ["in-family", 2],
      ["out-of-family", 2],
      ["(missing)", 1],
    ]);
    const [inFamily, outOfFamily, missing] = breakdown.groups;
    // in-family: none (0.5 + 0) / 2 = 0.25; learned (1 + 0.75) / 2 = 0.875; paired differences 0.5 and 0.75.
    expect(inFamily!.rows.map((r) => [r.label, r.tasks, r.meanAtK.estimate])).toEqual([
      ["none", 2, 0.25],
      ["math@v1", 2, 0.875],
    ]);
    expect(inFamily!.rows[0]!.deltaVsReference).toBeNull();
    const delta = inFamily!.rows[1]!.deltaVsReference!;
    expect(delta.estimate).toBe(0.625);
    expect(delta.low).toBeGreaterThanOrEqual(0.5);
    expect(delta.high).toBeLessThanOrEqual(0.75);
    expect(inFamily!.rows[1]!.meanAtK.low).toBeGreaterThanOrEqual(0.75);
    expect(inFamily!.rows[1]!.meanAtK.high).toBeLessThanOrEqual(1);
    // out-of-family: the same rewards, so no gain and a zero-width interval.
    expect(outOfFamily!.rows.map((r) => r.meanAtK.estimate)).toEqual([0.125, 0.125]);
    expect(outOfFamily!.rows[1]!.deltaVsReference).toEqual({ estimate: 0, low: 0, high: 0, level: 0.95 });
    expect(missing!.rows[1]!.deltaVsReference).toEqual({ estimate: 0, low: 0, high: 0, level: 0.95 });
    // Deterministic for a seed.
    expect(summarizeGroups([none, learned], tasks, "familySplit", { seed: 5 })).toEqual(breakdown);

    const byFamily = summarizeGroups([none, learned], tasks, "family");
    expect(byFamily.groups.map((g) => g.value)).toEqual(["a", "b", "c", "d"]);
    expect(byFamily.groups[1]!.rows[1]!.deltaVsReference?.estimate).toBe(0.75);
  });

  it("defaults to familySplit when the tasks carry it, and refuses a field no task has", () => {
    expect(resolveGroupBy(tasks, undefined)).toBe("familySplit");
    expect(resolveGroupBy([{ meta: { family: "a" } }, {}], undefined)).toBeNull();
    expect(resolveGroupBy(tasks, "none")).toBeNull();
    expect(resolveGroupBy(tasks, "family")).toBe("family");
    expect(() => resolveGroupBy(tasks, "difficulty")).toThrow(
      /--group-by difficulty: no task has that field \(their fields: family, familySplit\)/,
    );
    try {
      resolveGroupBy([], "x");
    } catch (error) {
      expect(TfgrpoError.hasCode(error, "invalid_input")).toBe(true);
    }
  });

  it("prints the groups as a table and one gain line per group", () => {
    const evaluation = {
      id: "eval",
      title: "t",
      data: null,
      k: 4,
      rows: [{ label: "none" }, { label: "math@v1" }],
      groups: summarizeGroups([none, learned], tasks.slice(0, 4), "familySplit", { seed: 5 }),
      createdAt: "2026-01-01T00:00:00.000Z",
    } as unknown as StoredEvaluation;
    const table = renderEvaluationGroups(evaluation);
    expect(table.split("\n")[0]).toBe("by familySplit:");
    expect(table).toMatch(/in-family\s+none\s+2\s+25\.0 \[/);
    expect(table).toMatch(/out-of-family\s+none\s+2\s+12\.5 \[/);
    expect(describeGroupGains(evaluation)).toEqual([
      expect.stringMatching(
        /^in-family: math@v1 \+62\.5 pts \[95% CI 5\d\.\d, 75\.0\] over none \(2 tasks\)$/,
      ),
      "out-of-family: math@v1 0.0 pts [95% CI 0.0, 0.0] over none (2 tasks)",
    ]);
    expect(renderEvaluationGroups({ ...evaluation, groups: undefined } as StoredEvaluation)).toBe("");
  });
});

describe("pass^k beside Mean@k", () => {
  it("averages C(c,k)/C(n,k) per task for k = 1..4, and the table shows it, only when asked", () => {
    const rows = summarizeEvaluation([none, learned], new Map(), { seed: 3, passHat: true });
    const none4 = rows[0]!.passHatK!;
    expect(none4.map((entry) => entry.k)).toEqual([1, 2, 3, 4]);
    // none: c = 2, 0, 1, 0, 4 of n = 4 -> pass^1 = (0.5 + 0 + 0.25 + 0 + 1) / 5, pass^4 = (0 + 0 + 0 + 0 + 1) / 5.
    expect(none4[0]!.value.estimate).toBeCloseTo(1.75 / 5, 12);
    expect(none4[1]!.value.estimate).toBeCloseTo((1 / 6 + 1) / 5, 12);
    expect(none4[3]!.value.estimate).toBeCloseTo(1 / 5, 12);
    // learned: c = 4, 3, 1, 0, 4 -> pass^4 = 2 / 5; pass^1 equals Mean@4 for 0/1 rewards.
    expect(rows[1]!.passHatK![3]!.value.estimate).toBeCloseTo(2 / 5, 12);
    expect(rows[1]!.passHatK![0]!.value.estimate).toBeCloseTo(rows[1]!.meanAtK.estimate, 12);
    const table = renderEvaluationTable({
      id: "e",
      title: "t",
      data: null,
      k: 4,
      rows,
      createdAt: "2026-01-01T00:00:00.000Z",
    });
    expect(table).toContain("pass^1 % [95% CI]");
    expect(table).toContain("pass^4 % [95% CI]");
    expect(table).toContain("20.0 [");
    const plain = summarizeEvaluation([none, learned], new Map(), { seed: 3 });
    expect(plain[0]!.passHatK).toBeUndefined();
  });
});
