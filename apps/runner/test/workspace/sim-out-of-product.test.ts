import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  importsOf,
  isTestFile,
  packageFiles,
  packageName,
  repositoryRoot,
  resolveRelative,
  workspacePackages,
} from "./source-imports.js";

/**
 * DESIGN §1: no product code path depends on the sim. Product code may name its types and load it with a dynamic
 * `import()` when asked (`--sim`); only the runner's `demo` and `sim` commands, tests, benchmarks and `testing`
 * helpers may import it statically. This test reads the sources, so it loads nothing of the sim itself.
 */
const mayImportTheSim = new Set(
  ["apps/runner/src/commands/demo.ts", "apps/runner/src/commands/sim.ts"].map((file) =>
    path.join(repositoryRoot, file),
  ),
);

const importsTheSim = (file: string) =>
  importsOf(file).some((entry) => entry.kind === "static" && packageName(entry.specifier) === "@tfgrpo/sim");

/** Files a product file loads when it is loaded: static relative imports, followed to the end. */
function staticClosure(file: string, within: string): Map<string, string> {
  const importedBy = new Map<string, string>([[file, "(entry)"]]);
  const queue = [file];
  for (const current of queue) {
    for (const entry of importsOf(current)) {
      if (entry.kind !== "static" || !entry.specifier.startsWith(".")) continue;
      const target = resolveRelative(current, entry.specifier);
      if (!target?.startsWith(within) || importedBy.has(target)) continue;
      importedBy.set(target, current);
      queue.push(target);
    }
  }
  return importedBy;
}

describe("the sim stays out of product code paths", () => {
  for (const workspacePackage of workspacePackages().filter((p) => p.name !== "@tfgrpo/sim")) {
    it(`${workspacePackage.name} loads @tfgrpo/sim only by dynamic import`, () => {
      const within = `${workspacePackage.directory}${path.sep}`;
      const product = packageFiles(workspacePackage.directory).filter(
        (file) => !isTestFile(workspacePackage.directory, file) && !mayImportTheSim.has(file),
      );
      const leaks: string[] = [];
      for (const file of product) {
        const closure = staticClosure(file, within);
        const culprit = [...closure.keys()].find((reached) => importsTheSim(reached));
        if (!culprit) continue;
        const chain = [culprit];
        while (chain[0] !== file) chain.unshift(closure.get(chain[0]!)!);
        leaks.push(chain.map((step) => path.relative(repositoryRoot, step)).join(" -> "));
      }
      expect(leaks).toEqual([]);
    });
  }

  it("sees a static import where there is one", () => {
    expect(importsTheSim(path.join(repositoryRoot, "apps/runner/src/commands/demo.ts"))).toBe(true);
  });
});
