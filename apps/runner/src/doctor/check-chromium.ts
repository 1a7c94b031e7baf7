import type { DoctorCheck, DoctorContext } from "./doctor-check.js";
import { findOnPath } from "./find-on-path.js";
import { runProgram } from "./run-program.js";

/** Where the report's and the studio's browser tests launch Chromium from (as they look it up). */
export function chromiumPath(env: NodeJS.ProcessEnv): string {
  return env.CHROMIUM_PATH ?? "/usr/bin/chromium";
}

export const chromiumCheck: DoctorCheck = {
  name: "chromium",
  purpose: "the report's and the studio's browser tests (development only)",
  required: () => false,
  run: async (context: DoctorContext) => {
    const binary = findOnPath(chromiumPath(context.env), context.env.PATH);
    if (!binary)
      return {
        status: "missing",
        detail: `no ${chromiumPath(context.env)} (set CHROMIUM_PATH to use another)`,
        install:
          "Debian/Ubuntu: sudo apt-get install chromium; macOS: brew install --cask chromium, then CHROMIUM_PATH",
      };
    const version = await runProgram(binary, ["--version"], { env: context.env, timeoutMs: 20_000 });
    return version.ok
      ? { status: "ok", detail: `${version.stdout.trim()} at ${binary}` }
      : { status: "warn", detail: `${binary} --version failed (${version.failure})` };
  },
};
