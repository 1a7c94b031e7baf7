import { createCodeInterpreter } from "@tfgrpo/tools";
import type { DoctorCheck, DoctorContext } from "./doctor-check.js";
import { findOnPath } from "./find-on-path.js";
import { runProgram } from "./run-program.js";

const install =
  "Debian/Ubuntu: sudo apt-get install bubblewrap; macOS: none, bubblewrap is Linux-only (the code interpreter needs Linux; tfgrpo tool run --allow-unsandboxed accepts weaker isolation)";

export const bubblewrapCheck: DoctorCheck = {
  name: "bubblewrap",
  purpose: "the code interpreter's sandbox (bwrap)",
  required: (context) => context.platform === "linux",
  run: async (context: DoctorContext) => {
    if (context.platform !== "linux")
      return { status: "missing", detail: `Linux-only, this is ${context.platform}`, install };
    const bwrap = findOnPath("bwrap", context.env.PATH);
    if (!bwrap) return { status: "missing", detail: "no bwrap on PATH", install };
    const version = await runProgram(bwrap, ["--version"], { env: context.env });
    return { status: "ok", detail: `${version.stdout.trim() || "bwrap"} at ${bwrap}` };
  },
};

/**
 * The sandbox started for real, as the code interpreter probes it (a cell printing 6 * 7 under bubblewrap): bwrap may
 * be installed and still fail when user namespaces are disabled (a container, a hardened kernel).
 */
export const userNamespacesCheck: DoctorCheck = {
  name: "sandbox",
  purpose: "bubblewrap with user namespaces runs a Python cell (the code interpreter's probe)",
  required: (context) => context.platform === "linux",
  run: async (context: DoctorContext) => {
    if (context.platform !== "linux" || !findOnPath("bwrap", context.env.PATH))
      return { status: "skipped", detail: "needs bubblewrap (above)" };
    const interpreter = createCodeInterpreter();
    try {
      const result = await interpreter.run("print(6 * 7)");
      if (result.exitCode === 0 && result.stdout.trim() === "42")
        return { status: "ok", detail: `a cell ran in the ${result.sandbox} sandbox` };
      return {
        status: "missing",
        detail: `a test cell failed (exit ${result.exitCode}): ${result.stderr.trim().split("\n").pop() ?? ""}`,
        install: userNamespacesHint,
      };
    } catch (error) {
      return {
        status: "missing",
        detail: (error as Error).message.split("\n")[0] ?? "",
        install: userNamespacesHint,
      };
    } finally {
      await interpreter.close();
    }
  },
};

const userNamespacesHint =
  "enable unprivileged user namespaces: sudo sysctl -w kernel.unprivileged_userns_clone=1 (Debian) or kernel.apparmor_restrict_unprivileged_userns=0 (Ubuntu 24.04+); in Docker, run with --security-opt seccomp=unconfined";
