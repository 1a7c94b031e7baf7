import { readFileSync } from "node:fs";

/**
 * The CLI's version: the runner package's own package.json, read when asked, one directory above this module's
 * folder both in the build (dist/cli-commands) and in the sources (src/cli-commands, run through tsx).
 */
export function runnerVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version?: unknown;
  };
  return typeof manifest.version === "string" ? manifest.version : "unknown";
}
