/** Everything the sim shows to a person carries this label: it is a test world, not a claim about real models. */
export const SIMULATED_LABEL = "SIMULATED (tfgrpo sim world: not a real model or a real web page)";
export const simulated = true as const;
/** Response header set on every answer of the sim server. */
export const simulatedHeader = "x-tfgrpo-simulated";
export const simModelNames = ["sim-actor", "sim-critic", "sim-curator", "sim-judge", "sim-embed"] as const;
export type SimModelName = (typeof simModelNames)[number];
