import { TfgrpoError } from "@tfgrpo/protocol";
import { presetNames } from "./dataset-presets.js";

/** Refuses a preset name that is not in the one list, naming every one that is. */
export function checkPresetName(name: string): void {
  if (presetNames.includes(name)) return;
  throw new TfgrpoError("invalid_input", `--preset ${name}: unknown (known: ${presetNames.join(", ")})`, {
    details: { field: "preset" },
  });
}
