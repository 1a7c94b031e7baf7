import type { CommandOutput } from "../cli-options/command-output.js";
import { renderDoctor, runDoctor } from "../doctor/doctor-checks.js";
import type { DoctorOptions } from "./doctor-command-options.js";

export type { DoctorOptions };

/** `tfgrpo doctor`: what commands need on this machine, one line each; false when something required is missing. */
export async function doctor(
  options: DoctorOptions,
  output: Pick<CommandOutput, "stdout"> = { stdout: process.stdout },
  env: NodeJS.ProcessEnv = process.env,
): Promise<boolean> {
  const result = await runDoctor({ env, platform: process.platform, db: options.db });
  output.stdout.write(options.json ? `${JSON.stringify(result, null, 2)}\n` : renderDoctor(result));
  return result.ok;
}
