import { defaultPolicyBehaviour } from "@tfgrpo/sim";
import { expect, it } from "vitest";
import { simOwnFall } from "./ablate.js";

it("ablate's help names the sim's own policy strength (kept apart so the command does not load the sim)", () => {
  expect(simOwnFall).toBe(defaultPolicyBehaviour.fall.none);
});
