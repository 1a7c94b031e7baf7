import type { DoctorCheck, DoctorContext } from "./doctor-check.js";
import { findOnPath } from "./find-on-path.js";
import { runProgram } from "./run-program.js";

export const natsServerCheck: DoctorCheck = {
  name: "nats-server",
  purpose: "the NATS server behind --nats (learn, eval, online, serve workers)",
  required: () => false,
  run: async (context: DoctorContext) => {
    const binary = findOnPath(context.env.NATS_SERVER_BIN || "nats-server", context.env.PATH);
    if (!binary)
      return {
        status: "missing",
        detail: "no nats-server on PATH (only --nats needs one, on this machine or another)",
        install: "Debian/Ubuntu: sudo apt-get install nats-server; macOS: brew install nats-server",
      };
    const version = await runProgram(binary, ["--version"], { env: context.env });
    return version.ok
      ? { status: "ok", detail: `${version.stdout.trim()} at ${binary} (start it with -js)` }
      : { status: "warn", detail: `${binary} --version failed (${version.failure})` };
  },
};
