import { existsSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, isTestFile, packageFiles, packageName, workspacePackages } from "./source-imports.js";

/**
 * Each manifest lists exactly what its package imports: what product code imports in `dependencies`, what only
 * tests, benchmarks and `testing` helpers import in `devDependencies`. Besides imports a manifest may list the peer
 * dependencies of what it imports (one copy of @langchain/core for everyone) and the `@types/` of an untyped import
 * (in `dependencies` when product code imports it: the published declarations name its types). Tools the scripts
 * run (tsc, tsx, turbo) come from the workspace root.
 */
const builtins = new Set(builtinModules);

function peersOf(directory: string, dependency: string): string[] {
  const manifest = path.join(directory, "node_modules", dependency, "package.json");
  if (!existsSync(manifest)) return [];
  return Object.keys(JSON.parse(readFileSync(manifest, "utf8")).peerDependencies ?? {});
}

describe("package manifests list exactly what each package imports", () => {
  for (const { name, directory, manifest } of workspacePackages()) {
    it(name, () => {
      const imported = { product: new Set<string>(), test: new Set<string>() };
      for (const file of packageFiles(directory)) {
        const side = isTestFile(directory, file) ? imported.test : imported.product;
        for (const { specifier } of importsOf(file)) {
          const dependency = packageName(specifier);
          if (dependency && dependency !== name && !builtins.has(dependency)) side.add(dependency);
        }
      }
      const dependencies = Object.keys(manifest.dependencies ?? {});
      const devDependencies = Object.keys(manifest.devDependencies ?? {});
      const everything = new Set([...imported.product, ...imported.test]);
      const peers = (used: Iterable<string>) => new Set([...used].flatMap((d) => peersOf(directory, d)));
      const productPeers = peers(imported.product);
      const allPeers = peers(everything);
      const typesOf = (dependency: string, used: Set<string> = everything) =>
        dependency.startsWith("@types/") && used.has(dependency.slice("@types/".length));

      expect({
        missingDependencies: [...imported.product].filter((d) => !dependencies.includes(d)).sort(),
        missingDevDependencies: [...imported.test]
          .filter(
            (d) => !imported.product.has(d) && !dependencies.includes(d) && !devDependencies.includes(d),
          )
          .sort(),
        unusedDependencies: dependencies
          .filter((d) => !imported.product.has(d) && !productPeers.has(d) && !typesOf(d, imported.product))
          .sort(),
        unusedDevDependencies: devDependencies
          .filter((d) => !everything.has(d) && !allPeers.has(d) && !typesOf(d))
          .sort(),
        devDependenciesThatProductImports: devDependencies.filter((d) => imported.product.has(d)).sort(),
      }).toEqual({
        missingDependencies: [],
        missingDevDependencies: [],
        unusedDependencies: [],
        unusedDevDependencies: [],
        devDependenciesThatProductImports: [],
      });
    });
  }
});
