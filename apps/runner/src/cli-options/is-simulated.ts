import path from "node:path";

/** A run is labelled SIMULATED when it started the sim world or uses a sim models config. */
export function isSimulated(config: string | undefined, startedSim: boolean): boolean {
  return startedSim || /sim/.test(path.basename(config ?? ""));
}
