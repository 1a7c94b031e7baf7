// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the config syntax under test is ${VAR} in plain strings
import { TfgrpoError } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { parseModelsConfig } from "./parse-models-config.js";

const env = {
  OPENAI_API_KEY: "sk-openai-0123456789",
  DEEPSEEK_API_KEY: "sk-deepseek-0123456789",
  SIM_PORT: "4010",
};

const valid = {
  providers: {
    openai: { baseUrl: "https://api.openai.com/v1/", apiKeyEnv: "OPENAI_API_KEY" },
    deepseek: {
      baseUrl: "https://api.deepseek.com/v1",
      apiKeyEnv: "DEEPSEEK_API_KEY",
      structuredOutput: "json_object",
    },
  },
  models: {
    cheap: {
      provider: "openai",
      model: "gpt-4.1-mini",
      temperature: 0.7,
      prices: { input: 0.4, cachedInput: 0.1, output: 1.6 },
    },
    deepseek: {
      provider: "deepseek",
      model: "deepseek-chat",
      maxTokens: 4096,
      prices: { input: 0.27, output: 1.1 },
    },
  },
  roles: {
    actor: "cheap",
    critic: "deepseek",
    curator: "deepseek",
    embedder: {
      provider: "openai",
      model: "text-embedding-3-small",
      batchSize: 128,
      prices: { input: 0.02, output: 0 },
    },
  },
};

function problemsOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(TfgrpoError.hasCode(error, "invalid_config")).toBe(true);
    return (error as Error).message;
  }
  throw new Error("expected an invalid_config error");
}

describe("parseModelsConfig", () => {
  it("resolves each role: provider merged, defaults applied, shared entries shared", () => {
    const config = parseModelsConfig(valid, { env, source: "models.yaml" });
    expect(config.source).toBe("models.yaml");
    expect(config.roles.actor).toEqual({
      ref: "models.cheap",
      provider: "openai",
      baseUrl: "https://api.openai.com/v1",
      apiKeyEnv: "OPENAI_API_KEY",
      model: "gpt-4.1-mini",
      temperature: 0.7,
      timeoutMs: 60_000,
      maxRetries: 4,
      structuredOutput: "json_schema",
      supportsSeed: true,
      refuses: { roles: [], params: [] },
      prices: { input: 0.4, cachedInput: 0.1, output: 1.6 },
      params: {},
      batchSize: 64,
    });
    // The critic is on another provider; cached input defaults to the input price; the provider's mode applies.
    expect(config.roles.critic).toMatchObject({
      ref: "models.deepseek",
      baseUrl: "https://api.deepseek.com/v1",
      structuredOutput: "json_object",
      prices: { input: 0.27, cachedInput: 0.27, output: 1.1 },
    });
    expect(config.roles.curator).toEqual(config.roles.critic);
    expect(config.roles.embedder).toMatchObject({
      ref: "roles.embedder",
      model: "text-embedding-3-small",
      batchSize: 128,
    });
    expect(config.roles.judge).toBeUndefined();
    // The resolved config names variables, never holds a key.
    expect(JSON.stringify(config)).not.toContain("0123456789");
  });

  it("names the key path of a typo, with a suggestion, wherever it is", () => {
    const message = problemsOf(() =>
      parseModelsConfig(
        {
          ...valid,
          models: { ...valid.models, cheap: { ...valid.models.cheap, temprature: 0.5 } },
          roles: { ...valid.roles, critc: "deepseek", embedder: { ...valid.roles.embedder, batchsize: 3 } },
          provider: {},
        },
        { env, source: "models.yaml" },
      ),
    );
    expect(message).toBe(
      [
        "invalid models config models.yaml (4 problems):",
        '  models.cheap.temprature: unknown key "temprature" (did you mean "temperature"?)',
        '  roles.critc: unknown key "critc" (did you mean "critic"?)',
        '  provider: unknown key "provider" (did you mean "providers"?)',
        '  roles.embedder.batchsize: unknown key "batchsize" (did you mean "batchSize"?)',
      ].join("\n"),
    );
  });

  it("lists the known keys when nothing is close, and flags wrong types and missing fields", () => {
    const message = problemsOf(() =>
      parseModelsConfig({
        models: { a: { baseUrl: "http://x/v1", colour: "blue", temperature: "hot" } },
        roles: { actor: "a", judge: 42 },
      }),
    );
    expect(message).toContain(
      'models.a.colour: unknown key "colour" (known keys: provider, baseUrl, apiKeyEnv, model,',
    );
    expect(message).toContain("models.a.model: required (string)");
    expect(message).toContain("models.a.temperature: Invalid input: expected number, received string");
    expect(message).toContain(
      "roles.judge: must be the name of an entry in models: or an inline model entry",
    );
  });

  it("fails at load on a missing key variable, naming the chain of references", () => {
    const message = problemsOf(() => parseModelsConfig(valid, { env: { OPENAI_API_KEY: "sk-x-123456" } }));
    expect(message).toContain(
      "roles.critic -> models.deepseek -> providers.deepseek.apiKeyEnv (DEEPSEEK_API_KEY not set)",
    );
    expect(message).toContain(
      "roles.curator -> models.deepseek -> providers.deepseek.apiKeyEnv (DEEPSEEK_API_KEY not set)",
    );
    const direct = problemsOf(() =>
      parseModelsConfig(
        {
          models: {
            deepseek: {
              baseUrl: "https://api.deepseek.com",
              apiKeyEnv: "DEEPSEEK_API_KEY",
              model: "deepseek-chat",
            },
          },
          roles: { critic: "deepseek" },
        },
        { env: { DEEPSEEK_API_KEY: "" } },
      ),
    );
    expect(direct).toContain("roles.critic -> models.deepseek.apiKeyEnv (DEEPSEEK_API_KEY not set)");
  });

  it("does not check keys of entries no role uses, but does check their references", () => {
    const message = problemsOf(() =>
      parseModelsConfig(
        {
          providers: { openai: valid.providers.openai },
          models: {
            used: { provider: "openai", model: "m" },
            unused: { provider: "opnai", model: "m", apiKeyEnv: "NOT_SET" },
          },
          roles: { actor: "used", critic: "usd" },
        },
        { env },
      ),
    );
    expect(message).toContain('models.unused.provider: unknown provider "opnai" (did you mean "openai"?)');
    expect(message).toContain('roles.critic: unknown model entry "usd" (did you mean "used"?)');
    expect(message).not.toContain("NOT_SET");
  });

  it("refuses a key pasted where the variable name goes, without echoing it", () => {
    const message = problemsOf(() =>
      parseModelsConfig({
        roles: {
          actor: { baseUrl: "http://localhost:8000/v1", model: "m", apiKeyEnv: "sk-live-abcdef123456" },
        },
      }),
    );
    expect(message).toContain("roles.actor.apiKeyEnv: must be the NAME of an environment variable");
    expect(message).not.toContain("abcdef123456");
  });

  it("interpolates ${VAR} and ${VAR:-default} in base URLs and reports unset ones", () => {
    const config = parseModelsConfig(
      {
        models: {
          sim: { baseUrl: "http://127.0.0.1:${SIM_PORT}/v1", model: "sim-model" },
          local: { baseUrl: "http://${OLLAMA_HOST:-localhost:11434}/v1", model: "qwen" },
        },
        roles: { actor: "sim", judge: "local" },
      },
      { env },
    );
    expect(config.roles.actor?.baseUrl).toBe("http://127.0.0.1:4010/v1");
    expect(config.roles.actor?.apiKeyEnv).toBeUndefined();
    expect(config.roles.judge?.baseUrl).toBe("http://localhost:11434/v1");
    const message = problemsOf(() =>
      parseModelsConfig(
        {
          models: { sim: { baseUrl: "http://127.0.0.1:${SIM_PORT}/v1", model: "m" } },
          roles: { actor: "sim" },
        },
        { env: {} },
      ),
    );
    expect(message).toContain("roles.actor -> models.sim.baseUrl (SIM_PORT not set)");
    expect(
      problemsOf(() => parseModelsConfig({ roles: { actor: { baseUrl: "localhost:8000", model: "m" } } })),
    ).toContain('roles.actor.baseUrl: must be an http(s) URL, got "localhost:8000"');
  });

  it("requires an endpoint, and the roles a run names", () => {
    const message = problemsOf(() =>
      parseModelsConfig({ roles: { actor: { model: "m" } } }, { requireRoles: ["actor", "critic"] }),
    );
    expect(message).toContain("roles.actor: needs a provider or a baseUrl");
    expect(message).toContain("roles.critic: not configured, and this run needs it");
    expect(problemsOf(() => parseModelsConfig({}))).toContain("roles: required (object)");
  });

  it("merges what a provider and a model refuse", () => {
    const config = parseModelsConfig({
      providers: { proxy: { baseUrl: "http://proxy/v1", refuses: { params: ["seed"] } } },
      models: {
        o: {
          provider: "proxy",
          model: "o3-mini",
          refuses: { roles: ["developer"], params: ["seed", "top_p"] },
        },
      },
      roles: { actor: "o" },
    });
    expect(config.roles.actor?.refuses).toEqual({ roles: ["developer"], params: ["seed", "top_p"] });
    expect(() =>
      parseModelsConfig({
        roles: { actor: { baseUrl: "http://x/v1", model: "m", refuses: { roles: ["assistant"] } } },
      }),
    ).toThrow(/refuses/);
  });
});
