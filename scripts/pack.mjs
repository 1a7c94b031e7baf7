#!/usr/bin/env node
// `npm run pack`: builds the workspace, then writes one tarball per publishable package into packed/ with `pnpm pack`
// (which rewrites `workspace:` and `catalog:` ranges to versions and applies `publishConfig`), and checks each
// tarball's manifest and contents: no workspace ranges, no `source` condition, no test code, every export present.
// Options: --no-build (use the dist/ already built), --out DIR (default packed/).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const outIndex = args.indexOf("--out");
const out = path.resolve(root, outIndex >= 0 ? args[outIndex + 1] : "packed");

function fail(message) {
  process.stderr.write(`pack: ${message}\n`);
  process.exit(1);
}

function run(command, commandArgs, cwd) {
  const result = spawnSync(command, commandArgs, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (result.error) fail(`${command} ${commandArgs.join(" ")} (in ${cwd}): ${result.error.message}`);
  if (result.status !== 0) {
    fail(
      `${command} ${commandArgs.join(" ")} (in ${cwd}) exited ${result.status}\n${result.stdout}${result.stderr}`,
    );
  }
  return result.stdout;
}

/** Workspace packages that are not private: every package under apps/ and packages/ that ships. */
function publishablePackages() {
  const packages = [];
  for (const group of ["packages", "apps"]) {
    for (const name of readdirSync(path.join(root, group)).sort()) {
      const directory = path.join(root, group, name);
      const manifestFile = path.join(directory, "package.json");
      if (!existsSync(manifestFile)) continue;
      const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
      if (!manifest.private) packages.push({ directory, manifest });
    }
  }
  return packages;
}

/** The exports a published package must have: the workspace's, without `./testing` and the `source` condition. */
function expectedPublishedExports(exports) {
  const published = {};
  for (const [subpath, conditions] of Object.entries(exports)) {
    if (subpath === "./testing") continue;
    const { source: _source, ...rest } = conditions;
    published[subpath] = rest;
  }
  return published;
}

function listFiles(directory) {
  const files = [];
  for (const entry of readdirSync(directory)) {
    const file = path.join(directory, entry);
    if (statSync(file).isDirectory()) files.push(...listFiles(file));
    else files.push(file);
  }
  return files;
}

/** Compiled files whose source is gone. */
function staleOutputs(directory) {
  const dist = path.join(directory, "dist");
  return listFiles(dist)
    .filter((file) => !file.startsWith(path.join(dist, "assets") + path.sep))
    .filter((file) => {
      const relative = path.relative(dist, file).replace(/(\.d\.ts|\.js\.map|\.js)$/, "");
      return !existsSync(path.join(directory, "src", `${relative}.ts`));
    })
    .map((file) => path.relative(root, file));
}

function checkWorkspace({ directory, manifest }) {
  const where = path.relative(root, directory);
  const problems = [];
  const published = manifest.publishConfig?.exports;
  if (JSON.stringify(published) !== JSON.stringify(expectedPublishedExports(manifest.exports ?? {}))) {
    problems.push(
      `publishConfig.exports must be "exports" without "./testing" and the "source" condition: ${JSON.stringify(expectedPublishedExports(manifest.exports ?? {}))}`,
    );
  }
  if (!existsSync(path.join(directory, "README.md"))) problems.push("no README.md");
  if (!existsSync(path.join(directory, "dist"))) problems.push("no dist/ (not built)");
  else {
    // tsc never deletes outputs and turbo's cache restores them: a file whose source is gone would ship as dead code.
    const stale = staleOutputs(directory);
    if (stale.length > 0)
      process.stderr.write(`pack: removing outputs without a source: ${stale.join(", ")}\n`);
    for (const file of stale) rmSync(path.join(root, file));
  }
  for (const field of ["license", "repository", "engines", "files", "description"]) {
    if (manifest[field] === undefined) problems.push(`no "${field}"`);
  }
  if (problems.length > 0) fail(`${where} (${manifest.name}):\n  ${problems.join("\n  ")}`);
}

/** Relative imports of the packed modules whose target is not packed (a file left out by `files`, e.g. testing/). */
function danglingImports(directory, entries) {
  const packed = new Set(entries);
  const dangling = [];
  for (const entry of entries.filter((file) => file.endsWith(".js"))) {
    const text = readFileSync(path.join(directory, entry), "utf8");
    for (const match of text.matchAll(/(?:from\s*|import\s*\(\s*|import\s+)"(\.{1,2}\/[^"]+)"/g)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(entry), match[1]));
      if (!packed.has(target)) dangling.push(`${entry} imports ${match[1]}`);
    }
  }
  return dangling;
}

/** Reads the tarball's manifest and file list and refuses what must not be published. */
function checkTarball(tarball, name, directory) {
  const entries = run("tar", ["-tzf", tarball], root)
    .split("\n")
    .filter(Boolean)
    .map((entry) => entry.replace(/^package\//, ""));
  const manifest = JSON.parse(run("tar", ["-xzOf", tarball, "package/package.json"], root));
  const problems = [];
  const text = JSON.stringify(manifest);
  for (const protocol of ["workspace:", "catalog:", "link:", "file:"]) {
    if (text.includes(`"${protocol}`)) problems.push(`a "${protocol}" range is left in package.json`);
  }
  if (manifest.private) problems.push("package.json says private");
  if (text.includes('"source"')) problems.push('the "source" export condition is left in package.json');
  for (const [subpath, conditions] of Object.entries(manifest.exports ?? {})) {
    if (subpath.includes("testing")) problems.push(`exports ${subpath}: test helpers are not published`);
    for (const target of Object.values(conditions)) {
      if (!entries.includes(target.replace(/^\.\//, "")))
        problems.push(`exports ${subpath} -> ${target} is missing`);
    }
  }
  for (const [bin, target] of Object.entries(manifest.bin ?? {})) {
    if (!entries.includes(target.replace(/^\.\//, ""))) problems.push(`bin ${bin} -> ${target} is missing`);
  }
  const testFiles = entries.filter((entry) =>
    /(^|\/)testing\/|\.test\.|\.test-support\.|\.bench\./.test(entry),
  );
  if (testFiles.length > 0) problems.push(`test files are packed: ${testFiles.slice(0, 5).join(", ")}`);
  const dangling = danglingImports(directory, entries);
  if (dangling.length > 0)
    problems.push(`imports of files that are not packed: ${dangling.slice(0, 5).join(", ")}`);
  for (const required of ["README.md", "LICENSE", "package.json"]) {
    if (!entries.includes(required)) problems.push(`${required} is missing`);
  }
  if (problems.length > 0) fail(`${path.relative(root, tarball)} (${name}):\n  ${problems.join("\n  ")}`);
  return entries.length;
}

if (!args.includes("--no-build")) {
  process.stderr.write("pack: building (turbo run build)\n");
  run("pnpm", ["exec", "turbo", "run", "build", "--output-logs=errors-only"], root);
}

const packages = publishablePackages();
if (packages.length === 0) fail("no publishable package (every workspace package is private)");
for (const pkg of packages) checkWorkspace(pkg);

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const rows = [];
for (const { directory, manifest } of packages) {
  const before = new Set(readdirSync(out));
  run("pnpm", ["pack", "--pack-destination", out], directory);
  const created = readdirSync(out).filter((file) => !before.has(file) && file.endsWith(".tgz"));
  if (created.length !== 1)
    fail(`pnpm pack in ${path.relative(root, directory)} wrote ${created.length} tarballs`);
  const tarball = path.join(out, created[0]);
  const files = checkTarball(tarball, manifest.name, directory);
  rows.push({
    name: manifest.name,
    file: path.relative(root, tarball),
    bytes: statSync(tarball).size,
    files,
  });
}

const width = Math.max(...rows.map((row) => row.file.length));
for (const row of rows) {
  process.stdout.write(
    `${row.file.padEnd(width)}  ${(row.bytes / 1024).toFixed(0).padStart(5)} KiB  ${String(row.files).padStart(4)} files  ${row.name}\n`,
  );
}
const total = rows.reduce((sum, row) => sum + row.bytes, 0);
process.stdout.write(
  `${rows.length} packages, ${(total / 1024).toFixed(0)} KiB in ${path.relative(root, out)}/\n`,
);
