import type { Command } from "commander";
import { checkedOptions } from "../cli-options/checked-options.js";

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
    // Checked against doctorCommandOptionsSchema (commands/doctor-command-options.ts), key for key, by a test.
    .action(async (raw: unknown) => {
      const options = await checkedOptions(
        "doctor",
        async () => (await import("../commands/doctor-command-options.js")).doctorCommandOptionsSchema,
        raw,
      );
      const { doctor } = await import("../commands/doctor.js");
      if (!(await doctor(options))) process.exitCode = 1;
    });
}
