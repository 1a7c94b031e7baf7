import { TfgrpoError } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { knownRoles, loadRole, registerRole } from "./registry.js";

describe("role registry", () => {
  it("finds a registered role and lists the known ones when asked for another", async () => {
    const factory = async () => ({ subjects: [], close: async () => {} });
    registerRole("registry-test", factory);
    expect(await loadRole("registry-test")).toBe(factory);
    expect(await knownRoles()).toContain("registry-test");
    const error = await loadRole("nosuch").catch((caught: unknown) => caught);
    expect(TfgrpoError.hasCode(error, "not_found")).toBe(true);
    expect((error as Error).message).toMatch(/^unknown role "nosuch"; known roles: .*registry-test/);
  });

  it("refuses bad names, names that are not roles, and a second factory under one name", async () => {
    expect(() => registerRole("Actor!", async () => ({ subjects: [], close: async () => {} }))).toThrow(
      /role name/,
    );
    registerRole("twice", async () => ({ subjects: [], close: async () => {} }));
    expect(() => registerRole("twice", async () => ({ subjects: [], close: async () => {} }))).toThrow(
      /registered twice/,
    );
    // A path-like name is never turned into a module path.
    await expect(loadRole("../commands/serve")).rejects.toThrow(/unknown role "..\/commands\/serve"/);
  });
});
