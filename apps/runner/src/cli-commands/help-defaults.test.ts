import { defaultValidationSamples } from "@tfgrpo/curator";
import { experienceStatusSchema, gateRuleSchema } from "@tfgrpo/protocol";
import { defaultRateLimit } from "@tfgrpo/serving";
import { suiteSplits } from "@tfgrpo/sim";
import { defaultStudioPort } from "@tfgrpo/studio";
import { toolNames } from "@tfgrpo/tools";
import { expect, it } from "vitest";
import * as helpDefaults from "./help-defaults.js";

it("the help text's values agree with the packages they come from (kept apart so --help loads none of them)", () => {
  expect(helpDefaults.defaultValidationSamples).toBe(defaultValidationSamples);
  expect(helpDefaults.defaultStudioPort).toBe(defaultStudioPort);
  expect([...helpDefaults.gateRules]).toEqual([...gateRuleSchema.options]);
  expect([...helpDefaults.toolNames]).toEqual([...toolNames]);
  expect([...helpDefaults.suiteSplits]).toEqual([...suiteSplits]);
  expect(helpDefaults.defaultRateLimit).toEqual(defaultRateLimit);
  expect([...helpDefaults.experienceStatuses]).toEqual([...experienceStatusSchema.options]);
});
