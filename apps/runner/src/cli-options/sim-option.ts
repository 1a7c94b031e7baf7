import { Option } from "commander";

/** `--sim`: the command starts the SIMULATED world itself (loaded only then; see runtime/start-sim-world.ts). */
export function simOption(
  description = "start the SIMULATED model server in-process and use examples/models.sim.yaml",
): Option {
  return new Option("--sim", description);
}
