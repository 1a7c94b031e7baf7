import type { Command } from "commander";
import type { DoctorOptions } from "../commands/doctor.js";

export function registerDoctorCommand(program: Command): void {
  program
    .command("doctor")
    .description(
      "Check what the commands need on this machine (Node, python3 and its modules, bubblewrap, nats-server, PostgreSQL, Chromium), one line each with how to install what is missing; exits non-zero when something required is missing",
    )
    .option(
      "--db <url>",
      "also connect to this database (a postgres:// URL; without it PostgreSQL is skipped)",
    )
    .option("--json", "print the checks as JSON")
    .action(async (options: DoctorOptions) => {
      const { doctor } = await import("../commands/doctor.js");
      if (!(await doctor(options))) process.exitCode = 1;
    });
}
