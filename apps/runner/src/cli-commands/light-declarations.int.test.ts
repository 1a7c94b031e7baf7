import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { repositoryRoot } from "../testing/spawn-cli.js";

// `tfgrpo --help` (and each command's help) builds every command's declaration and nothing else: a declaration that
// imports a command's implementation, or a package for a default value, makes every start pay for it (see
// bench/cli-start.bench.ts). The CLI runs from its sources, as `pnpm tfgrpo` does, with a loader hook that lists
// every module it loads.

let temporary: TemporaryDirectory;
beforeAll(async () => {
  temporary = await temporaryDirectory("tfgrpo-cli-light-");
});
afterAll(() => temporary?.[Symbol.asyncDispose]());

const listModules = `
import { appendFileSync } from "node:fs";
import { register } from "node:module";
const hooks = "data:text/javascript," + encodeURIComponent(
  "import { appendFileSync } from 'node:fs';" +
  "let file; export function initialize(data) { file = data.file; }" +
  "export async function load(url, context, next) { appendFileSync(file, url + '\\\\n'); return next(url, context); }"
);
register(hooks, { parentURL: import.meta.url, data: { file: process.env.TFGRPO_MODULE_LIST } });
`;

async function modulesLoadedBy(args: string[]): Promise<{ modules: string[]; stdout: string }> {
  const list = path.join(temporary.path, `${args.join("-") || "none"}.txt`);
  const tsx = pathToFileURL(createRequire(path.join(repositoryRoot, "package.json")).resolve("tsx")).href;
  const child = spawn(
    process.execPath,
    [
      "--conditions=source",
      "--import",
      tsx,
      "--import",
      `data:text/javascript,${encodeURIComponent(listModules)}`,
      path.join(repositoryRoot, "apps/runner/src/cli.ts"),
      ...args,
    ],
    { env: { ...process.env, TFGRPO_MODULE_LIST: list }, stdio: ["ignore", "pipe", "inherit"] },
  );
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  expect(code).toBe(0);
  return { modules: readFileSync(list, "utf8").trim().split("\n"), stdout };
}

/** What a module is, for the message: a package name, or a file of the workspace. */
function origin(url: string): string {
  const packageName = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  return packageName ?? url.replace(pathToFileURL(repositoryRoot).href, "");
}

it("--help, a command's --help and --version (the runner's package.json version) load commander and the declarations only", async () => {
  for (const args of [["--help"], ["learn", "--help"], ["library", "list", "--help"], ["--version"]]) {
    const { modules, stdout } = await modulesLoadedBy(args);
    expect(stdout.length).toBeGreaterThan(0);
    const heavy = modules
      .filter((url) => !url.startsWith("node:"))
      .map(origin)
      .filter(
        (name) =>
          name !== "commander" &&
          !/^\/apps\/runner\/src\/(cli\.ts|cli-commands\/|cli-options\/|ablation\/sim-fall\.ts|data-import\/(?:dataset-presets|preset-requirements)\.ts)/.test(
            name,
          ),
      );
    expect({ args, heavy: [...new Set(heavy)] }).toEqual({ args, heavy: [] });
    if (args[0] === "--version") {
      const manifest = JSON.parse(
        readFileSync(path.join(repositoryRoot, "apps/runner/package.json"), "utf8"),
      );
      expect(stdout).toBe(`${manifest.version}\n`);
    }
  }
}, 60_000);
