import { makeTask } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { describeValidationPower } from "./validation-power.js";

const tasks = (n: number) =>
  Array.from({ length: n }, (_, i) => makeTask({ id: `v${i}`, domain: "math", answer: "1" }));
const options = { valK: 2, groundTruth: "required" as const };
const gainOf = (line: string) => Number(/wins by about (\d+) points/.exec(line)?.[1]);
const lossRateOf = (line: string) => Number(/loss is committed ([\d.]+)%/.exec(line)?.[1]);

describe("describeValidationPower", () => {
  it("says what a 4-task set can detect under each rule, from the real rule", async () => {
    const sequential = await describeValidationPower({ ...options }, tasks(4));
    expect(sequential).toMatch(
      /^validation: 4 tasks x up to 30 samples \(gate sequential, the curator's default\)/,
    );
    const paired = await describeValidationPower({ ...options, gate: "paired-t" }, tasks(4));
    expect(paired).toMatch(/^validation: 4 tasks x 2 samples \(gate paired-t\)/);
    const paper = await describeValidationPower({ ...options, gate: "paper" }, tasks(4));
    // More seeds per task let the sequential gate detect a far smaller gain than one t test at 2 samples.
    expect(gainOf(sequential)).toBeLessThan(gainOf(paired) / 2);
    expect(lossRateOf(sequential)).toBeLessThanOrEqual(5);
    // The paper's rule commits almost anything, a 10-point loss included.
    expect(lossRateOf(paper)).toBeGreaterThan(20);
  });

  it("fewer samples per task detect less: a cap of 4 on 4 tasks", async () => {
    const capped = await describeValidationPower({ ...options, valMaxK: 4 }, tasks(4));
    expect(capped).toMatch(/4 tasks x up to 4 samples/);
    expect(gainOf(capped)).toBeGreaterThan(gainOf(await describeValidationPower({ ...options }, tasks(4))));
  });

  it("leaves the event loop free while it simulates: a timer due meanwhile fires before the line is ready", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      const line = await describeValidationPower({ ...options }, tasks(4));
      expect(line).toMatch(/wins by about \d+ points/);
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
  });
});
