import { agentSdksCheck } from "./check-agent-sdks.js";
import { bubblewrapCheck, userNamespacesCheck } from "./check-bubblewrap.js";
import { chromiumCheck } from "./check-chromium.js";
import { natsServerCheck } from "./check-nats-server.js";
import { nodeCheck } from "./check-node.js";
import { postgresCheck } from "./check-postgres.js";
import { pythonCheck } from "./check-python.js";
import type { CheckReport, DoctorCheck, DoctorContext } from "./doctor-check.js";

/** Everything `tfgrpo doctor` checks, in the order it prints them. */
export const doctorChecks: readonly DoctorCheck[] = [
  nodeCheck,
  pythonCheck,
  bubblewrapCheck,
  userNamespacesCheck,
  natsServerCheck,
  postgresCheck,
  chromiumCheck,
  agentSdksCheck,
];

/** Runs the checks side by side (each waits on a process: a version query, a sandbox start) and reports them in order. */
export async function runDoctor(
  context: DoctorContext,
  checks: readonly DoctorCheck[] = doctorChecks,
): Promise<{ ok: boolean; checks: CheckReport[] }> {
  const reports = await Promise.all(
    checks.map(async (check): Promise<CheckReport> => {
      const required = check.required(context);
      const outcome = await check.run(context).catch((error: unknown) => ({
        status: "missing" as const,
        detail: `the check failed: ${(error as Error).message.split("\n")[0]}`,
      }));
      return { name: check.name, purpose: check.purpose, required, ...outcome };
    }),
  );
  return { ok: reports.every((report) => !report.required || report.status === "ok"), checks: reports };
}

/** One line per check: status, name, what was found, what needs it (required or optional), how to install it. */
export function renderDoctor(result: { ok: boolean; checks: CheckReport[] }): string {
  const nameWidth = Math.max(...result.checks.map((check) => check.name.length));
  const lines = result.checks.map((check) => {
    const need = check.required ? "required" : "optional";
    const install = check.install && check.status !== "ok" ? ` — install: ${check.install}` : "";
    return `${check.status.padEnd(7)} ${check.name.padEnd(nameWidth)}  ${check.detail} — ${need}: ${check.purpose}${install}`;
  });
  const missing = result.checks.filter((check) => check.required && check.status !== "ok");
  lines.push(
    result.ok
      ? "tfgrpo doctor: everything required is here"
      : `tfgrpo doctor: missing what commands need: ${missing.map((check) => check.name).join(", ")}`,
  );
  return `${lines.join("\n")}\n`;
}
