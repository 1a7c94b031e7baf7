import { describe, expect, it } from "vitest";
import { defaultEnvironmentPoolSize, withEnvironmentPool } from "./environment-pool-setting.js";

describe("withEnvironmentPool", () => {
  it("keeps one warm environment per rollout at once, 2 to 16", () => {
    expect(defaultEnvironmentPoolSize(1)).toBe(2);
    expect(defaultEnvironmentPoolSize(8)).toBe(8);
    expect(defaultEnvironmentPoolSize(64)).toBe(16);
    expect(withEnvironmentPool({}, {}, { concurrency: 12 }).environmentPool?.size).toBe(12);
  });

  it("lets the settings and then TFGRPO_ENVIRONMENT_POOL choose the size", () => {
    const settings = { environmentPool: { size: 3, maxStarting: 1 } };
    expect(withEnvironmentPool(settings, {}).environmentPool).toEqual({ size: 3, maxStarting: 1 });
    expect(withEnvironmentPool(settings, { TFGRPO_ENVIRONMENT_POOL: "off" }).environmentPool?.size).toBe(0);
    expect(withEnvironmentPool(settings, { TFGRPO_ENVIRONMENT_POOL: "5" }).environmentPool?.size).toBe(5);
  });

  it("refuses a value that is not a size, naming the variable", () => {
    expect(() => withEnvironmentPool({}, { TFGRPO_ENVIRONMENT_POOL: "many" })).toThrow(
      /TFGRPO_ENVIRONMENT_POOL=many: expected the number of warm environments/,
    );
  });
});
