import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Helpers of the workspace checks: the packages, their TypeScript files and what each file imports. */

export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

export interface WorkspacePackage {
  name: string;
  directory: string;
  manifest: {
    name: string;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
}

/** Every package of the pnpm workspace (packages/*, apps/*). */
export function workspacePackages(): WorkspacePackage[] {
  return ["packages", "apps"].flatMap((parent) => {
    const root = path.join(repositoryRoot, parent);
    return readdirSync(root)
      .map((name) => path.join(root, name))
      .filter((directory) => existsSync(path.join(directory, "package.json")))
      .map((directory) => {
        const manifest = JSON.parse(readFileSync(path.join(directory, "package.json"), "utf8"));
        return { name: manifest.name as string, directory, manifest };
      });
  });
}

/** The TypeScript files of a package (sources, tests, benchmarks, fixtures), without dist/ and node_modules/. */
export function packageFiles(directory: string): string[] {
  const files: string[] = [];
  const visit = (folder: string) => {
    for (const name of readdirSync(folder)) {
      if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
      const file = path.join(folder, name);
      if (statSync(file).isDirectory()) visit(file);
      else if (/\.(ts|mts|tsx)$/.test(name) && !name.endsWith(".d.ts")) files.push(file);
    }
  };
  visit(directory);
  return files.sort();
}

/** Tests, benchmarks, fixtures and `testing` helpers: code that ships nothing a user runs. */
export function isTestFile(packageDirectory: string, file: string): boolean {
  const relative = path.relative(packageDirectory, file).split(path.sep).join("/");
  return (
    !relative.startsWith("src/") ||
    /\.(test|int\.test|bench)\.ts$/.test(relative) ||
    relative.startsWith("src/testing/")
  );
}

export interface SourceImport {
  specifier: string;
  /** "static": `import ... from` / `export ... from` / `import "x"`; "type": `import type` / `export type`. */
  kind: "static" | "type" | "dynamic";
}

// Statements start a line (a formatted file), so prose in comments and strings that merely mentions imports is skipped.
// The clause before `from` ({ a, type B }, * as c, d) has no "=", "(" or ";", which keeps `export const x = {...}`
// with a "from" in a string from reading as an import.
const fromStatement = /^[ \t]*(import|export)\s+(type\s+)?(?:[^;=()]*?\s)?from\s*["']([^"'\s]+)["']/gm;
const bareImport = /^[ \t]*import\s*["']([^"'\s]+)["']/gm;
const dynamicImport = /\bimport\(\s*["']([^"'\s]+)["']\s*\)/g;

/** What a file imports, by specifier and kind. */
export function importsOf(file: string): SourceImport[] {
  const text = readFileSync(file, "utf8");
  const found: SourceImport[] = [];
  for (const match of text.matchAll(fromStatement))
    found.push({ specifier: match[3]!, kind: match[2] ? "type" : "static" });
  for (const match of text.matchAll(bareImport)) found.push({ specifier: match[1]!, kind: "static" });
  for (const match of text.matchAll(dynamicImport)) found.push({ specifier: match[1]!, kind: "dynamic" });
  return found;
}

/** The file a relative specifier names (`./x.js` is `./x.ts` in the sources), or undefined when there is none. */
export function resolveRelative(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(m?js|ts)$/, "");
  return [`${stem}.ts`, `${stem}.mts`, `${stem}.tsx`, base, path.join(base, "index.ts")].find(
    (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
  );
}

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`; undefined for relative and `node:` specifiers. */
export function packageName(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:"))
    return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}
