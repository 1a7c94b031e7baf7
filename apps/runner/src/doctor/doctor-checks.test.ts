import { describe, expect, it } from "vitest";
import { agentSdksOutcome } from "./check-agent-sdks.js";
import { isAtLeast } from "./check-node.js";
import type { CheckOutcome, DoctorCheck } from "./doctor-check.js";
import { renderDoctor, runDoctor } from "./doctor-checks.js";

const context = { env: {}, platform: "linux" as const };

function fake(name: string, required: boolean, outcome: CheckOutcome | Error): DoctorCheck {
  return {
    name,
    purpose: `${name}'s purpose`,
    required: () => required,
    run: async () => {
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
  };
}

describe("runDoctor", () => {
  it("fails only on a required part that is not ok, and says which, with how to install it", async () => {
    const result = await runDoctor(context, [
      fake("alpha", true, { status: "ok", detail: "v1" }),
      fake("beta", true, { status: "missing", detail: "not found", install: "apt-get install beta" }),
      fake("gamma", false, { status: "missing", detail: "not found", install: "apt-get install gamma" }),
    ]);
    expect(result.ok).toBe(false);
    expect(renderDoctor(result)).toBe(
      [
        "ok      alpha  v1 — required: alpha's purpose",
        "missing beta   not found — required: beta's purpose — install: apt-get install beta",
        "missing gamma  not found — optional: gamma's purpose — install: apt-get install gamma",
        "tfgrpo doctor: missing what commands need: beta",
        "",
      ].join("\n"),
    );
  });

  it("passes with optional parts missing, and a check that throws is reported as missing", async () => {
    const optional = await runDoctor(context, [
      fake("alpha", true, { status: "ok", detail: "v1" }),
      fake("gamma", false, { status: "missing", detail: "not found" }),
      fake("delta", false, { status: "skipped", detail: "not asked" }),
    ]);
    expect(optional.ok).toBe(true);
    expect(renderDoctor(optional).trimEnd().split("\n").at(-1)).toBe(
      "tfgrpo doctor: everything required is here",
    );
    const thrown = await runDoctor(context, [fake("alpha", true, new Error("boom\nstack"))]);
    expect(thrown).toMatchObject({
      ok: false,
      checks: [{ name: "alpha", status: "missing", detail: "the check failed: boom" }],
    });
  });
});

it("compares Node versions part by part", () => {
  expect(isAtLeast("v20.18.0", "20.18.0")).toBe(true);
  expect(isAtLeast("v20.9.1", "20.18.0")).toBe(false);
  expect(isAtLeast("v22.1.0", "20.18.0")).toBe(true);
  expect(isAtLeast("v20.17.99", "20.18.0")).toBe(false);
});

it("says which agent SDKs need Node 22 (a warning on Node 20, never a failure)", () => {
  expect(agentSdksOutcome("v20.20.2")).toMatchObject({
    status: "warn",
    detail:
      "v20.20.2: @openai/agents up to 0.14.3 and ai@6 run here; @openai/agents 0.15+, ai@7 and Mastra 1.x (the Mastra for ai@6 models) need Node 22.13.0",
  });
  expect(agentSdksOutcome("v22.13.0").status).toBe("ok");
  expect(agentSdksOutcome("v22.12.0").status).toBe("warn");
});
