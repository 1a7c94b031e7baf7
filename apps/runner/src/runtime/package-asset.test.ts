import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repositoryRoot } from "../testing/index.js";
import { packageAsset } from "./package-asset.js";

describe("packageAsset", () => {
  it("finds a repository file from the sources (no dist/assets beside src)", () => {
    const file = packageAsset("examples/models.sim.yaml");
    expect(file).toBe(path.join(repositoryRoot, "examples/models.sim.yaml"));
    expect(readFileSync(file, "utf8")).toMatch(/SIM_PORT/);
  });

  it("names where the file would be when it is in neither place", () => {
    const file = packageAsset("examples/no-such-file.yaml");
    expect(existsSync(file)).toBe(false);
    expect(file).toBe(path.join(repositoryRoot, "examples/no-such-file.yaml"));
  });
});
