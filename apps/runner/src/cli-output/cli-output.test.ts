import { describe, expect, it } from "vitest";
import { createProgress } from "./progress.js";
import { renderTable } from "./render-table.js";

describe("renderTable", () => {
  it("aligns numbers right and text left, with - for missing", () => {
    const text = renderTable(
      [
        { header: "epoch", value: (r: { e: number; s: number | null; d: string }) => r.e },
        { header: "score", value: (r) => r.s },
        { header: "gate", value: (r) => r.d },
      ],
      [
        { e: 1, s: 0.5, d: "commit" },
        { e: 10, s: null, d: "reject" },
      ],
    );
    expect(text.split("\n")).toEqual([
      "epoch  score  gate",
      "-----  -----  ------",
      "    1  0.500  commit",
      "   10      -  reject",
    ]);
  });
});

describe("createProgress", () => {
  it("writes plain log lines off a TTY, at quarters and at the end", () => {
    const lines: string[] = [];
    let clock = 0;
    const progress = createProgress({
      label: "rollouts",
      total: 8,
      stream: { write: (t: string) => lines.push(t), isTTY: false },
      now: () => clock,
      logEveryMs: 1_000_000,
    });
    for (let i = 1; i <= 8; i++) {
      clock += 1000;
      progress.update(i, { tokens: 1500 * i, costUsd: 0.001 * i });
    }
    progress.done();
    expect(lines.every((l) => l.endsWith("\n") && !l.includes("\r"))).toBe(true);
    expect(lines[0]).toContain("rollouts: 1/8  ETA 7s  1.5k tok  $0.0010");
    expect(lines.some((l) => l.includes("rollouts: 8/8  ETA done"))).toBe(true);
    expect(lines.length).toBeLessThanOrEqual(6);
  });

  it("redraws one line on a TTY", () => {
    const out: string[] = [];
    const progress = createProgress({
      label: "eval",
      total: 2,
      stream: { write: (t: string) => out.push(t), isTTY: true },
    });
    progress.update(1);
    progress.done();
    expect(out[0]).toMatch(/^\r\x1b\[2Keval █+░+ 1\/2/);
    expect(out.at(-1)).toBe("\n");
  });
});
