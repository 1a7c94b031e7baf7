import { describe, expect, it } from "vitest";
import { resolveCuratorConfig } from "./curator-config.js";
import { detectableGain, detectableGainInSlices } from "./gate-power.js";
import { gateConfigFor } from "./gate-rule.js";

describe("detectableGain", () => {
  const config = gateConfigFor(resolveCuratorConfig().gate, "sequential");

  it("in slices gives the same answer as in one go (same seed, same trials), with the loop free between slices", async () => {
    const options = { tasks: 12, samplesPerTask: 10, config, trials: 120 };
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      expect(await detectableGainInSlices(options, 1)).toEqual(detectableGain(options));
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
  });

  it("detects less on fewer tasks, and keeps a 10-point loss rare", () => {
    const few = detectableGain({ tasks: 4, samplesPerTask: 4, config, trials: 200 });
    const many = detectableGain({ tasks: 40, samplesPerTask: 4, config, trials: 200 });
    expect(many.gain).not.toBeNull();
    expect(few.gain === null || few.gain > many.gain!).toBe(true);
    expect(many.lossCommitRate).toBeLessThanOrEqual(0.05);
  });
});
