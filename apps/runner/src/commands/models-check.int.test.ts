// `tfgrpo models check` against the sim world and against servers that answer 401, 404, 400 and never.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { type ScriptedHandler, startScriptedOpenAIServer } from "@tfgrpo/models/testing";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { startSimWorld } from "../runtime/start-sim-world.js";
import { captureCommandOutput } from "../testing/capture-command-output.js";
import { modelsCheck, renderModelsCheck } from "./models.js";

async function checkAgainst(handler: ScriptedHandler | undefined, timeoutMs = 5_000) {
  await using directory = await temporaryDirectory("tfgrpo-models-check-");
  await using server = await startScriptedOpenAIServer(handler ? { handler } : {});
  const config = path.join(directory.path, "models.yaml");
  writeFileSync(
    config,
    [
      "providers:",
      `  local: { baseUrl: "${server.url}", apiKeyEnv: CHECK_KEY }`,
      "roles:",
      "  actor: { provider: local, model: small-actor }",
      "  critic: { provider: local, model: small-critic }",
      "  embedder: { provider: local, model: small-embedder }",
      "",
    ].join("\n"),
  );
  const { output, written } = captureCommandOutput();
  const report = await modelsCheck({ config, timeoutMs, mode: "tools" }, output, {
    CHECK_KEY: "sk-check-0123456789",
  });
  return { report, text: written.stdout, server };
}

const chatOnly =
  (reply: ReturnType<ScriptedHandler>): ScriptedHandler =>
  (request) =>
    request.path === "/chat/completions" ? reply : undefined;

/** A capable model: calls the offered tool, reads its result, answers JSON when asked for a sum. */
const capable: ScriptedHandler = (request) => {
  if (request.path !== "/chat/completions") return undefined;
  const messages: Array<{ role: string }> = request.body.messages;
  if (messages.at(-1)?.role === "tool") return { kind: "chat", content: "The sum is 5." };
  if (request.body.tools) return { kind: "chat", toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }] };
  return { kind: "chat", content: '{"sum": 5}' };
};

describe("tfgrpo models check", () => {
  it("passes against the sim world, with a capability table and the mode each role uses", async () => {
    await using sim = await startSimWorld({ seed: 1 });
    const { output, written } = captureCommandOutput();
    const report = await modelsCheck({ config: sim.config, timeoutMs: 20_000, mode: "tools" }, output);
    expect(report.ok).toBe(true);
    const actor = report.roles.find((check) => check.role === "actor")!;
    expect(actor.results.chat?.status).toBe("ok");
    expect(actor.results.tools?.status).toBe("ok");
    expect(actor.structuredMode).toBe("json_schema");
    expect(report.roles.map((check) => check.role)).toContain("critic");
    expect(written.stdout).toMatch(
      /^role\s+model\s+chat\s+tools\s+json_schema\s+json_object\s+text\s+seed\s+embeddings\s+cached tokens\s+structured mode/,
    );
    expect(written.stdout).toMatch(
      /actor \(sim-actor at http:\/\/127\.0\.0\.1:\d+\/v1\): ok \(needs chat, tools\)/,
    );
    expect(written.stdout).toMatch(/every role can do what it is used for/);
  }, 60_000);

  it("says 401 once per role: the key was refused", async () => {
    const { report, text } = await checkAgainst(() => ({
      kind: "error",
      status: 401,
      message: "Incorrect API key provided",
    }));
    expect(report.ok).toBe(false);
    for (const role of ["actor", "critic", "embedder"]) {
      const lines = text.split("\n").filter((line) => line.startsWith(`${role} (`));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /: 401 unauthorized: http:\/\/127\.0\.0\.1:\d+\/v1 refused the key in CHECK_KEY: Incorrect API key provided$/,
      );
    }
    expect(text).toMatch(/some roles cannot do what they are used for/);
  });

  it("says 404 model not found, naming the model and the endpoint", async () => {
    const { report, text } = await checkAgainst((request) => ({
      kind: "error",
      status: 404,
      message: `The model \`${request.body?.model}\` does not exist`,
      type: "invalid_request_error",
      code: "model_not_found",
    }));
    expect(report.ok).toBe(false);
    expect(text).toMatch(
      /^actor \(small-actor at .*\): 404 model not found: "small-actor" at http:\/\/127\.0\.0\.1:\d+\/v1: The model `small-actor` does not exist$/m,
    );
  });

  it("falls back from a refused json_schema (400) to json_object and says which mode each role will use", async () => {
    const { report, text } = await checkAgainst((request) =>
      request.body?.response_format?.type === "json_schema"
        ? {
            kind: "error",
            status: 400,
            message: "response_format json_schema is not supported",
            type: "invalid_request_error",
          }
        : capable(request),
    );
    const critic = report.roles.find((check) => check.role === "critic")!;
    expect(critic.results.json_schema?.status).toBe("refused");
    expect(critic.structuredMode).toBe("json_object");
    expect(critic.ok).toBe(true);
    expect(text).toMatch(
      /critic \(small-critic at .*\): ok \(needs chat, structured output\); structured output as json_object; json_schema: the provider refused json_schema; cached_tokens: no cached tokens reported for a repeated prompt$/m,
    );
  });

  it("fails the actor when tool calls get a 400 (unsupported parameter), in one line", async () => {
    const { report, text } = await checkAgainst((request) =>
      request.body?.tools
        ? {
            kind: "error",
            status: 400,
            message: "Unrecognized request argument supplied: tools",
            type: "invalid_request_error",
          }
        : capable(request),
    );
    const actor = report.roles.find((check) => check.role === "actor")!;
    expect(actor.ok).toBe(false);
    expect(report.ok).toBe(false);
    expect(text).toMatch(
      /^actor \(small-actor at .*\): cannot be used: tool calls: 400 unsupported parameter or value: Unrecognized request argument supplied: tools$/m,
    );
    // The critic does not need tools: it is fine.
    expect(report.roles.find((check) => check.role === "critic")!.ok).toBe(true);
  });

  it("says timeout when the endpoint never answers", async () => {
    const { report, text } = await checkAgainst(chatOnly({ kind: "hang" }), 300);
    expect(report.ok).toBe(false);
    expect(text).toMatch(
      /^actor \(small-actor at .*\): timeout: no answer from http:\/\/127\.0\.0\.1:\d+\/v1 within 300 ms$/m,
    );
    // Embeddings still answer.
    expect(report.roles.find((check) => check.role === "embedder")!.ok).toBe(true);
    expect(renderModelsCheck(report)).toContain("FAIL");
  });
});
