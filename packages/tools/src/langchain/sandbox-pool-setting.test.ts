import { TfgrpoError } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { defaultActorSandboxPoolSize, withSandboxPool } from "./sandbox-pool-setting.js";

describe("withSandboxPool", () => {
  it("turns the warm pool on by default and keeps the other tool settings", () => {
    const config = withSandboxPool({ codeInterpreter: { timeoutMs: 5000 }, fetchCache: "run" }, {});
    expect(config.fetchCache).toBe("run");
    expect(config.codeInterpreter).toMatchObject({
      timeoutMs: 5000,
      pool: { size: defaultActorSandboxPoolSize(), preImport: "auto" },
    });
  });

  it("sizes the pool to the actor's concurrency, between 8 and 32", () => {
    const sizeAt = (concurrency: number) =>
      withSandboxPool({}, {}, { concurrency }).codeInterpreter?.pool?.size;
    expect(sizeAt(1)).toBe(8);
    expect(sizeAt(24)).toBe(24);
    expect(sizeAt(64)).toBe(32);
    // An explicit size wins over the concurrency.
    expect(
      withSandboxPool({}, { TFGRPO_SANDBOX_POOL: "4" }, { concurrency: 64 }).codeInterpreter?.pool?.size,
    ).toBe(4);
  });

  it("takes the settings file's pool, and the environment over it", () => {
    const settings = { codeInterpreter: { pool: { size: 3, preImport: ["math"] } } };
    expect(withSandboxPool(settings, {}).codeInterpreter?.pool).toMatchObject({
      size: 3,
      preImport: ["math"],
    });
    expect(withSandboxPool(settings, { TFGRPO_SANDBOX_POOL: "off" }).codeInterpreter?.pool?.size).toBe(0);
    expect(
      withSandboxPool(settings, { TFGRPO_SANDBOX_POOL: "12", TFGRPO_SANDBOX_PREIMPORT: "sympy, fractions" })
        .codeInterpreter?.pool,
    ).toMatchObject({ size: 12, preImport: ["sympy", "fractions"] });
    expect(
      withSandboxPool({}, { TFGRPO_SANDBOX_PREIMPORT: "none" }).codeInterpreter?.pool?.preImport,
    ).toEqual([]);
    expect(
      withSandboxPool(settings, { TFGRPO_SANDBOX_PREIMPORT: "auto" }).codeInterpreter?.pool?.preImport,
    ).toBe("auto");
  });

  it("refuses a bad value with the variable or field named", () => {
    const bad = (env: NodeJS.ProcessEnv, config = {}) => {
      try {
        withSandboxPool(config, env);
      } catch (error) {
        expect(TfgrpoError.hasCode(error, "invalid_config")).toBe(true);
        return (error as Error).message;
      }
      throw new Error("accepted");
    };
    expect(bad({ TFGRPO_SANDBOX_POOL: "many" })).toContain("TFGRPO_SANDBOX_POOL=many");
    expect(bad({ TFGRPO_SANDBOX_PREIMPORT: "os;rm" })).toContain("pool.preImport[0]");
    expect(bad({}, { codeInterpreter: { pool: { size: -1 } } })).toMatch(
      /^tools\.codeInterpreter: pool\.size/,
    );
  });
});
