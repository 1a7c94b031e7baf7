import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The repository's root (tests and benchmarks run the runner from it). */
export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

/**
 * Node arguments that run the `tfgrpo` CLI from its sources through tsx: serving's tests drive the real command
 * without depending on the runner package (which depends on this one) or on its build.
 */
export const runnerCliArgs: readonly string[] = [
  "--conditions=source",
  "--import",
  pathToFileURL(createRequire(path.join(repositoryRoot, "package.json")).resolve("tsx")).href,
  path.join(repositoryRoot, "apps/runner/src/cli.ts"),
];
