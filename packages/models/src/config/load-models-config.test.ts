import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { TfgrpoError } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { loadModelsConfig, parseModelsConfigYaml } from "./load-models-config.js";

const examples = fileURLToPath(new URL("../../../../examples/", import.meta.url));

async function writeTemp(text: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-models-"));
  const file = path.join(dir, "models.yaml");
  await writeFile(file, text);
  return file;
}

describe("loadModelsConfig", () => {
  it("names file, line and key path of every problem", async () => {
    const file = await writeTemp(
      [
        "providers:",
        "  deepseek:",
        "    baseUrl: https://api.deepseek.com/v1",
        "    apiKeyEnv: DEEPSEEK_API_KEY",
        "models:",
        "  cheap:",
        "    baseUrl: http://localhost:8000/v1",
        "    model: qwen",
        "    temprature: 0.7",
        "  deepseek:",
        "    provider: deepseek",
        "    model: deepseek-chat",
        "roles:",
        "  actor: cheap",
        "  critic: deepseek",
        "",
      ].join("\n"),
    );
    const error = await loadModelsConfig(file, { env: {} }).catch((e) => e);
    expect(TfgrpoError.hasCode(error, "invalid_config")).toBe(true);
    expect(error.message).toBe(
      [
        `invalid models config ${file} (1 problem):`,
        `  ${file}:9: models.cheap.temprature: unknown key "temprature" (did you mean "temperature"?)`,
      ].join("\n"),
    );
    // With the typo fixed, the next problem (found by following references) points at the variable's line.
    await writeFile(
      file,
      (await import("node:fs")).readFileSync(file, "utf8").replace("temprature", "temperature"),
    );
    const missingKey = await loadModelsConfig(file, { env: {} }).catch((e) => e);
    expect(missingKey.message).toContain(
      `${file}:4: roles.critic -> models.deepseek -> providers.deepseek.apiKeyEnv (DEEPSEEK_API_KEY not set)`,
    );
    expect(missingKey.details.problems).toEqual([
      {
        path: "roles.critic -> models.deepseek -> providers.deepseek.apiKeyEnv",
        message: "(DEEPSEEK_API_KEY not set)",
        line: 4,
      },
    ]);
  });

  it("reports YAML syntax errors and duplicate keys with their line", () => {
    expect(() => parseModelsConfigYaml("roles:\n  actor: a\n  actor: b\n", { source: "m.yaml" })).toThrow(
      "invalid YAML in m.yaml:\n  m.yaml:3: Map keys must be unique",
    );
    expect(() => parseModelsConfigYaml("roles: [unclosed\n", { source: "m.yaml" })).toThrow(
      /invalid YAML in m\.yaml/,
    );
  });

  it("names an unreadable file", async () => {
    await expect(loadModelsConfig("/nonexistent/models.yaml")).rejects.toThrow(
      "/nonexistent/models.yaml: cannot read models config: no such file",
    );
  });

  it("loads the example configs", async () => {
    const real = await loadModelsConfig(path.join(examples, "models.yaml"), {
      env: { OPENAI_API_KEY: "sk-a-123456", DEEPSEEK_API_KEY: "sk-b-123456" },
      requireRoles: ["actor", "critic", "curator", "judge", "embedder"],
    });
    expect(real.roles.actor?.baseUrl).not.toBe(real.roles.critic?.baseUrl);
    expect(real.roles.critic?.model).not.toBe(real.roles.actor?.model);
    const sim = await loadModelsConfig(path.join(examples, "models.sim.yaml"), {
      env: { SIM_PORT: "43210" },
      requireRoles: ["actor", "critic", "curator", "judge", "embedder"],
    });
    for (const entry of Object.values(sim.roles)) {
      expect(entry.baseUrl).toBe("http://127.0.0.1:43210/v1");
      expect(entry.apiKeyEnv).toBeUndefined();
    }
  });
});
