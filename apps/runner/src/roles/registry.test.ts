import { defineRole, TfgrpoError } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { knownRoles, loadRole, registerRole } from "./registry.js";

/** A started role that serves nothing; these tests never start one. */
const noEndpoints = async () => ({ ...defineRole("empty", {}, { subjects: {} }), close: async () => {} });

describe("role registry", () => {
  it("finds a registered role and lists the known ones when asked for another", async () => {
    const factory = noEndpoints;
    registerRole("registry-test", factory);
    expect(await loadRole("registry-test")).toBe(factory);
    expect(await knownRoles()).toContain("registry-test");
    const error = await loadRole("nosuch").catch((caught: unknown) => caught);
    expect(TfgrpoError.hasCode(error, "not_found")).toBe(true);
    expect((error as Error).message).toMatch(/^unknown role "nosuch"; known roles: .*registry-test/);
  });

  it("refuses bad names, names that are not roles, and a second factory under one name", async () => {
    expect(() => registerRole("Actor!", async () => noEndpoints())).toThrow(/role name/);
    registerRole("twice", async () => noEndpoints());
    expect(() => registerRole("twice", async () => noEndpoints())).toThrow(/registered twice/);
    // A path-like name is never turned into a module path.
    await expect(loadRole("../commands/serve")).rejects.toThrow(/unknown role "..\/commands\/serve"/);
  });
});
