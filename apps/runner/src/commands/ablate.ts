export type { AblateOptions } from "../ablation/ablation-settings.js";
export { type AblationOutcome, runAblation as ablate } from "../ablation/run-ablation.js";
export { paperSimFall, simOwnFall } from "../ablation/sim-fall.js";
