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
];

/** Runs the checks one after another (a sandbox start and a browser start are not run side by side). */
export async function runDoctor(
  context: DoctorContext,
  checks: readonly DoctorCheck[] = doctorChecks,
): Promise<{ ok: boolean; checks: CheckReport[] }> {
  const reports: CheckReport[] = [];
  for (const check of checks) {
    const required = check.required(context);
    let outcome: Awaited<ReturnType<DoctorCheck["run"]>>;
    try {
      outcome = await check.run(context);
    } catch (error) {
      outcome = { status: "missing", detail: `the check failed: ${(error as Error).message.split("\n")[0]}` };
    }
    reports.push({ name: check.name, purpose: check.purpose, required, ...outcome });
  }
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
