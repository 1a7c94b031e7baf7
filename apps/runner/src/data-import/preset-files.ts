import { existsSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Task } from "@tfgrpo/protocol";

// What every directory preset writes the same way: its files (whole or not at all), the server command of its
// environment (runs from any folder), and the next commands it prints.

/** Node flags whose value is a module to load: ES module specifiers (URLs) and CommonJS ones (paths). */
const importFlags = new Set(["--import", "--loader", "--experimental-loader"]);
const requireFlags = new Set(["--require", "-r"]);

/**
 * Node's flags as this process got them, with every module they load (`--import tsx` from a source checkout) made
 * absolute: Node resolves a bare name or a relative path from the working directory, and a server spawned in the
 * output folder (outside the repository) would find no `tsx` there and never answer initialize.
 */
export function absoluteExecArgv(
  execArgv: readonly string[],
  resolve: (specifier: string) => string = resolveFromWorkingDirectory,
): string[] {
  const absolute = (specifier: string, asUrl: boolean): string => {
    if (specifier.startsWith("./") || specifier.startsWith("../")) {
      const file = path.resolve(specifier);
      return asUrl ? pathToFileURL(file).href : file;
    }
    // Absolute paths and URLs (file:, data:, node:) already mean the same from anywhere.
    if (path.isAbsolute(specifier) || /^[a-z][a-z0-9+.-]*:/i.test(specifier)) return specifier;
    const file = resolve(specifier);
    return asUrl ? pathToFileURL(file).href : file;
  };
  const result: string[] = [];
  for (let index = 0; index < execArgv.length; index++) {
    const argument = execArgv[index]!;
    const [flag, inline] = argument.split(/=(.*)/s, 2) as [string, string | undefined];
    const asUrl = importFlags.has(flag);
    if (!asUrl && !requireFlags.has(flag)) result.push(argument);
    else if (inline !== undefined) result.push(`${flag}=${absolute(inline, asUrl)}`);
    else if (index + 1 < execArgv.length) result.push(flag, absolute(execArgv[++index]!, asUrl));
    else result.push(argument);
  }
  return result;
}

/** A bare module name as Node resolved it for this process's flags: from the working directory it started in. */
function resolveFromWorkingDirectory(specifier: string): string {
  try {
    return createRequire(path.join(process.cwd(), "noop.js")).resolve(specifier);
  } catch {
    // Only an ES module export (no CommonJS entry): resolved as this module sees it, which found it too.
    return fileURLToPath(import.meta.resolve(specifier));
  }
}

/**
 * The built CLI beside a source checkout's `src/cli.ts` (`dist/cli.js`, after `pnpm build`), or undefined when this
 * CLI runs from anything else or was never built.
 */
export function builtCliBeside(
  script: string,
  exists: (file: string) => boolean = existsSync,
): string | undefined {
  if (path.basename(script) !== "cli.ts" || path.basename(path.dirname(script)) !== "src") return undefined;
  const built = path.join(path.dirname(script), "..", "dist", "cli.js");
  return exists(built) ? path.resolve(built) : undefined;
}

/**
 * This CLI serving a domain's environment (`env serve DOMAIN --data DIR`) by absolute paths: a command that runs from
 * any folder. From a source checkout with its built code present, the built CLI (`node …/dist/cli.js`): a server is
 * spawned per attempt, and through the TypeScript loader each start compiled the CLI again (seconds of CPU a start on
 * a loaded machine). Otherwise as this CLI runs now (node, its flags, its script).
 */
export function thisCliServing(
  domain: string,
  dataDir: string,
  current: { execArgv: readonly string[]; script: string } = {
    execArgv: process.execArgv,
    script: process.argv[1]!,
  },
): { command: string; args: string[] } {
  const script = path.resolve(current.script);
  const built = builtCliBeside(script);
  return {
    command: process.execPath,
    args: [
      ...(built ? [built] : [...absoluteExecArgv(current.execArgv), script]),
      "env",
      "serve",
      domain,
      "--data",
      dataDir,
    ],
  };
}

/** Writes a whole file or nothing (a crash leaves the old file or none, never half of one). */
export async function writeAtomically(file: string, text: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, file);
}

/** Tasks as JSONL, one a line. */
export const jsonl = (tasks: readonly Task[]) => tasks.map((task) => `${JSON.stringify(task)}\n`).join("");

/** How a user runs this CLI again: as they did (`pnpm tfgrpo` from a checkout), or the installed `tfgrpo`. */
function cliName(env: NodeJS.ProcessEnv = process.env): string {
  return env.npm_lifecycle_event === "tfgrpo" ? "pnpm tfgrpo" : "tfgrpo";
}

const quoted = (value: string) =>
  /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;

/**
 * The next commands, exactly as they run: learn on train (validated on val, or a note to make one), then eval of the
 * learned head against no library on test. `--settings` names the folder, so they work from any directory; `--sim`
 * runs them in the SIMULATED world as printed, `--config models.yaml` in its place runs them on real models.
 */
export function nextCommands(
  domain: string,
  files: { train: string; val?: string | undefined; test: string },
  outDir: string,
  cli = cliName(),
): string {
  const learn = [
    cli,
    "learn",
    "--domain",
    domain,
    "--train",
    files.train,
    "--val",
    files.val ?? files.test,
    "--settings",
    outDir,
    "--sim",
  ];
  const evaluate = [
    cli,
    "eval",
    "--domain",
    domain,
    "--data",
    files.test,
    "--k",
    "4",
    "--library",
    "none",
    "--library",
    `${domain}@head`,
    "--settings",
    outDir,
    "--sim",
  ];
  return [
    "next (as printed they run in the SIMULATED world; put --config models.yaml with a user role in place of --sim for your models):",
    // The CLI's name is a command line of its own ("pnpm tfgrpo"), never one quoted word.
    `  ${[cli, ...learn.slice(1).map(quoted)].join(" ")}`,
    `  ${[cli, ...evaluate.slice(1).map(quoted)].join(" ")}`,
    ...(files.val
      ? []
      : [
          "  (no validation split: learn is gated on test.jsonl above; import with --val-share 0.2 to keep test held out)",
        ]),
    "",
  ].join("\n");
}
