// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the config syntax under test is ${VAR} in plain strings
import { expect, it } from "vitest";
import { didYouMean, editDistance } from "./did-you-mean.js";
import { interpolateEnv } from "./interpolate-env.js";

it("suggests the closest key for a plausible typo only", () => {
  const keys = ["temperature", "maxTokens", "timeoutMs", "model", "baseUrl", "apiKeyEnv"];
  expect(didYouMean("temprature", keys)).toBe("temperature");
  expect(didYouMean("maxtokens", keys)).toBe("maxTokens");
  expect(didYouMean("BaseURL", keys)).toBe("baseUrl");
  expect(didYouMean("apiKey", keys)).toBe("apiKeyEnv");
  expect(didyouMeanNothing(keys)).toBeUndefined();
  expect(editDistance("timeoutsM", "timeoutMs")).toBe(1);
});

function didyouMeanNothing(keys: string[]) {
  return didYouMean("colour", keys);
}

it("interpolates environment variables with defaults and reports the missing ones", () => {
  expect(interpolateEnv("http://${HOST}:${PORT:-8000}/v1", { HOST: "h" })).toEqual({
    ok: true,
    value: "http://h:8000/v1",
  });
  expect(interpolateEnv("${A}${B}", { A: "" })).toEqual({ ok: false, missing: ["A", "B"] });
  expect(interpolateEnv("no variables", {})).toEqual({ ok: true, value: "no variables" });
});
