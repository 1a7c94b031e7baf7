import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  importsOf,
  packageFiles,
  repositoryRoot,
  resolveRelative,
  workspacePackages,
} from "./source-imports.js";

/**
 * Import cycles between the files of a package, type-only and dynamic imports included: a cycle means two files
 * are one concept split in two (or a shared piece that wants its own file), whatever the load order makes of it.
 */
function findImportCycles(files: readonly string[]): string[][] {
  const inPackage = new Set(files);
  const edges = new Map(
    files.map((file) => [
      file,
      [
        ...new Set(
          importsOf(file)
            .filter((entry) => entry.specifier.startsWith("."))
            .map((entry) => resolveRelative(file, entry.specifier))
            .filter((target): target is string => target !== undefined && inPackage.has(target)),
        ),
      ],
    ]),
  );
  const cycles: string[][] = [];
  const seen = new Set<string>();
  // Depth-first search; a file found again on the current path closes a cycle.
  const onPath: string[] = [];
  const visit = (file: string) => {
    onPath.push(file);
    for (const next of edges.get(file) ?? []) {
      const at = onPath.indexOf(next);
      if (at >= 0) cycles.push([...onPath.slice(at), next]);
      else if (!seen.has(next)) visit(next);
    }
    onPath.pop();
    seen.add(file);
  };
  for (const file of files) if (!seen.has(file)) visit(file);
  return cycles;
}

async function temporaryDirectory() {
  const directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-import-cycles-"));
  return { path: directory, [Symbol.asyncDispose]: () => rm(directory, { recursive: true, force: true }) };
}

describe("no import cycles between the files of a package", () => {
  for (const workspacePackage of workspacePackages()) {
    it(workspacePackage.name, () => {
      const cycles = findImportCycles(packageFiles(workspacePackage.directory)).map((cycle) =>
        cycle.map((file) => path.relative(repositoryRoot, file)).join(" -> "),
      );
      expect(cycles).toEqual([]);
    });
  }

  it("finds a cycle where there is one, through type-only imports too", async () => {
    await using directory = await temporaryDirectory();
    await writeFile(
      path.join(directory.path, "a.ts"),
      'import type { B } from "./b.js";\nexport type A = B[];\n',
    );
    await writeFile(
      path.join(directory.path, "b.ts"),
      'import { c } from "./c.js";\nexport type B = typeof c;\n',
    );
    await writeFile(
      path.join(directory.path, "c.ts"),
      'export type { A } from "./a.js";\nexport const c = 1;\n',
    );
    await writeFile(path.join(directory.path, "d.ts"), 'import { c } from "./c.js";\nexport const d = c;\n');
    const cycles = findImportCycles(packageFiles(directory.path));
    expect(cycles.map((cycle) => cycle.map((file) => path.basename(file)))).toEqual([
      ["a.ts", "b.ts", "c.ts", "a.ts"],
    ]);
  });
});
